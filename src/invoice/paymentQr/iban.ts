import { ALPHANUMERIC, mod97 } from './mod97.js';

/**
 * IBAN lengths of the SEPA countries (EPC409-09, with Albania, Moldova, Montenegro and North
 * Macedonia, members since 2025) from the SWIFT IBAN registry. An IBAN of another country is
 * refused: every scheme we print an IBAN into (EPC, Swiss QR-bill) is SEPA or Swiss, and a length
 * we cannot check is a typo we cannot catch.
 */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AL: 28,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  VA: 22,
};

export type Checked<T = string> = { ok: true; value: T } | { ok: false; reason: string };

/** The electronic form: no spaces, upper case ("de89 3704 …" as printed is accepted). */
export function compact(value: string): string {
  return value.replace(/ /g, '').toUpperCase();
}

/** ISO 13616: country, 2 check digits, BBAN of the country's length; mod 97 of the rearranged IBAN is 1. */
export function checkIban(input: string): Checked {
  const iban = compact(input);
  if (!ALPHANUMERIC.test(iban) || !/^[A-Z]{2}\d{2}/.test(iban)) {
    return {
      ok: false,
      reason: 'must be an IBAN: 2-letter country code, 2 check digits, then letters and digits (spaces allowed)',
    };
  }
  const country = iban.slice(0, 2);
  const length = IBAN_LENGTHS[country];
  if (length === undefined) {
    return {
      ok: false,
      reason: `must be an IBAN of a SEPA country or CH/LI; ${country} is not one (${Object.keys(IBAN_LENGTHS).join(', ')})`,
    };
  }
  if (iban.length !== length)
    return {
      ok: false,
      reason: `must be ${length} characters long for country ${country} (ISO 13616), not ${iban.length}`,
    };
  if (mod97(iban.slice(4) + iban.slice(0, 4)) !== 1)
    return { ok: false, reason: 'has wrong check digits (ISO 13616 mod 97): check for a typo' };
  return { ok: true, value: iban };
}

/** "CH4431999123000889012" → "CH44 3199 9123 0008 8901 2", the printed form. */
export function formatIban(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}
