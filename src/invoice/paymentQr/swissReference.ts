import { checkIban, compact, type Checked } from './iban.js';

/**
 * Swiss QR-IBAN: a CH or LI IBAN whose institution id (positions 5–9) is 30000–31999. Payments to
 * it must carry a QR reference (Swiss Implementation Guidelines QR-bill, 4.3.2).
 */
export function isQrIban(iban: string): boolean {
  const iid = Number(iban.slice(4, 9));
  return (iban.startsWith('CH') || iban.startsWith('LI')) && iid >= 30000 && iid <= 31999;
}

export function checkQrIban(input: string): Checked {
  const iban = checkIban(input);
  if (!iban.ok) return iban;
  if (!isQrIban(iban.value)) {
    return {
      ok: false,
      reason:
        'must be a QR-IBAN: a CH or LI IBAN whose institution id (positions 5–9) is 30000–31999; an ordinary IBAN goes in iban',
    };
  }
  return iban;
}

// Modulo 10 recursive (Swiss IG QR-bill, appendix B): each digit moves a carry through this table.
const MOD10_TABLE = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5] as const;

/** The check digit of a QR reference's first 26 digits. */
export function mod10Recursive(digits: string): number {
  let carry = 0;
  for (const char of digits) carry = MOD10_TABLE[(carry + Number(char)) % 10]!;
  return (10 - carry) % 10;
}

/** QR reference (QRR): 27 digits, the last a modulo 10 recursive check digit; not all zeros. */
export function checkQrReference(input: string): Checked {
  const reference = compact(input);
  if (!/^\d{27}$/.test(reference))
    return { ok: false, reason: 'must be a QR reference (QRR): 27 digits (spaces allowed)' };
  if (/^0+$/.test(reference)) return { ok: false, reason: 'must not be all zeros' };
  if (mod10Recursive(reference.slice(0, 26)) !== Number(reference[26])) {
    return { ok: false, reason: 'has a wrong check digit (modulo 10 recursive, 27th digit): check for a typo' };
  }
  return { ok: true, value: reference };
}

/** "210000000003139471430009017" → "21 00000 00003 13947 14300 09017": blocks of 5 from the right. */
export function formatQrReference(reference: string): string {
  return `${reference.slice(0, 2)} ${reference.slice(2).replace(/(.{5})(?=.)/g, '$1 ')}`;
}
