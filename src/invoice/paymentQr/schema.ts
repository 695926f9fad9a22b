import * as v from 'valibot';
import { checkBic } from './bic.js';
import { checkRfReference, looksLikeRfReference } from './creditorReference.js';
import { checkEvmAddress } from './evmAddress.js';
import { checkIban, type Checked } from './iban.js';
import { checkPixKey } from './pixKey.js';
import { SINGLE_LINE } from './singleLine.js';
import { checkQrIban, checkQrReference, isQrIban } from './swissReference.js';
import { checkUpiVpa } from './upiVpa.js';

/**
 * The invoice's `payment` object (docs/payment-qr.md). Every field
 * is optional; each is checked by its own standard's rule, and the Swiss fields against each
 * other. Values come out in their electronic form (IBAN without spaces, upper case; CPF/CNPJ
 * without punctuation), which is what the QR payloads carry.
 */
const PAYMENT_LIMITS = {
  /** EPC069-12 beneficiary name and Swiss QR-bill creditor name: 70 characters. */
  accountName: 70,
  /** EPC069-12 unstructured remittance and Swiss QR-bill Ustrd: 140 characters. */
  reference: 140,
} as const;

// One line, no tab: every payload is line- or parameter-based, a line break would shift fields.

function singleLine(max: number, description: string) {
  return v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `must be at most ${max} characters long`),
    v.regex(SINGLE_LINE, 'must be one line: no line breaks, tabs or other control characters'),
    v.description(description),
  );
}

/** A string checked (and normalized) by one of the standard validators. */
function standard(check: (input: string) => Checked, max: number, description: string) {
  return v.pipe(
    v.string('must be a string'),
    v.maxLength(max, `must be at most ${max} characters long`),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const result = check(dataset.value);
      if (result.ok) return result.value;
      addIssue({ message: result.reason });
      return NEVER;
    }),
    v.description(description),
  );
}

/** `reference`: free text, or an ISO 11649 RF reference when it starts with RF and two digits (then checked). */
const ReferenceField = v.pipe(
  singleLine(
    PAYMENT_LIMITS.reference,
    'Payment reference, at most 140 characters on one line: an ISO 11649 creditor reference (RF…, checked, sent as structured remittance) or free text. Default in the QR code: the invoice number.',
  ),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    if (!looksLikeRfReference(dataset.value)) return dataset.value;
    const result = checkRfReference(dataset.value);
    if (result.ok) return result.value;
    addIssue({
      message: `starts like an ISO 11649 creditor reference (RF + 2 digits) and ${result.reason.replace(/^must be/, 'so must be')}`,
    });
    return NEVER;
  }),
);

/** `qr_reference`: a Swiss QR reference (QRR, with qr_iban) or an RF creditor reference (SCOR, with a CH/LI iban). */
function checkSwissReference(input: string): Checked {
  if (looksLikeRfReference(input)) return checkRfReference(input);
  const result = checkQrReference(input);
  return result.ok ? result : { ok: false, reason: `${result.reason}; or an ISO 11649 creditor reference (RF…)` };
}

const isQrr = (reference: string) => !looksLikeRfReference(reference);

/** The key in its stored form (CPF/CNPJ bare, random key lower case). */
function checkPixKeyText(input: string): Checked {
  const result = checkPixKey(input);
  return result.ok ? { ok: true, value: result.value.value } : result;
}

const QR_MODES = ['auto', 'none'] as const;

const PaymentFieldsSchema = v.strictObject(
  {
    iban: v.optional(
      v.pipe(
        standard(
          checkIban,
          42,
          'IBAN of the seller (ISO 13616, mod 97 checked; spaces allowed), of a SEPA country or CH/LI. A Swiss QR-IBAN goes in qr_iban.',
        ),
        v.check(
          (iban) => !isQrIban(iban),
          'is a Swiss QR-IBAN (institution id 30000–31999), which takes only QR references: put it in qr_iban with qr_reference',
        ),
      ),
    ),
    bic: v.optional(standard(checkBic, 14, "BIC of the seller's bank (ISO 9362, 8 or 11 characters).")),
    account_name: v.optional(
      singleLine(
        PAYMENT_LIMITS.accountName,
        'Account holder printed in the QR code instead of seller.name, at most 70 characters on one line.',
      ),
    ),
    reference: v.optional(ReferenceField),
    qr_iban: v.optional(
      standard(
        checkQrIban,
        42,
        'Swiss QR-IBAN (CH/LI IBAN with institution id 30000–31999) for a QR-bill with a QR reference.',
      ),
    ),
    qr_reference: v.optional(
      standard(
        checkSwissReference,
        40,
        'Swiss QR-bill reference: a QR reference (QRR, 27 digits, modulo 10 recursive check digit; needs qr_iban) or an ISO 11649 creditor reference (SCOR, RF…; needs a CH/LI iban).',
      ),
    ),
    pix_key: v.optional(
      standard(
        checkPixKeyText,
        80,
        'PIX key (Brazil): e-mail, +55 phone, CPF or CNPJ (check digits checked), or random key (UUID v4).',
      ),
    ),
    upi_vpa: v.optional(standard(checkUpiVpa, 200, 'UPI virtual payment address (India), like name@bank.')),
    evm_address: v.optional(
      standard(
        checkEvmAddress,
        42,
        'Address that receives USDC on Base, EIP-55 checksummed (mixed case); all lower-case addresses are refused (no checksum).',
      ),
    ),
    qr: v.optional(v.picklist(QR_MODES, `must be one of ${QR_MODES.join(', ')}`), 'auto'),
  },
  'unknown property',
);

/**
 * The Swiss rules between fields (IG QR-bill 4.3.2): a QR-IBAN takes only a QR reference, and a
 * QR reference only a QR-IBAN; an RF reference (SCOR) goes with an ordinary CH/LI IBAN.
 */
export const PaymentSchema = v.pipe(
  PaymentFieldsSchema,
  v.forward(
    v.partialCheck(
      [['qr_iban'], ['qr_reference']],
      (p) => p.qr_iban === undefined || p.qr_reference !== undefined,
      'is required with qr_iban: a QR-IBAN takes only payments with a QR reference (QRR, 27 digits)',
    ),
    ['qr_reference'],
  ),
  v.forward(
    v.partialCheck(
      [['qr_iban'], ['qr_reference']],
      (p) => p.qr_iban === undefined || p.qr_reference === undefined || isQrr(p.qr_reference),
      'must be a QR reference (QRR, 27 digits) with qr_iban; an RF creditor reference (SCOR) needs an ordinary CH/LI IBAN in iban',
    ),
    ['qr_reference'],
  ),
  v.forward(
    v.partialCheck(
      [['qr_iban'], ['qr_reference']],
      (p) => p.qr_reference === undefined || !isQrr(p.qr_reference) || p.qr_iban !== undefined,
      'is a QR reference (QRR), which needs a QR-IBAN in qr_iban',
    ),
    ['qr_reference'],
  ),
  v.forward(
    v.partialCheck(
      [['iban'], ['qr_iban'], ['qr_reference']],
      (p) =>
        p.qr_reference === undefined ||
        isQrr(p.qr_reference) ||
        p.qr_iban !== undefined ||
        (p.iban !== undefined && /^(CH|LI)/.test(p.iban)),
      'is an RF creditor reference (SCOR) for the Swiss QR-bill, which needs a CH or LI IBAN in iban',
    ),
    ['qr_reference'],
  ),
);

export type PaymentInput = v.InferInput<typeof PaymentSchema>;
export type Payment = v.InferOutput<typeof PaymentSchema>;
