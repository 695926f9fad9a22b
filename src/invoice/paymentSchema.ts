import * as v from 'valibot';
import { LIMITS } from './limits.js';
import { text } from './textRules.js';

/** Bank details printed in the payment panel (and, later, read by the payment QR codes). */
export const PaymentSchema = v.strictObject(
  {
    iban: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.regex(/^[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]){11,30}$/, 'must be an IBAN: two-letter country code, two check digits, then 11 to 30 letters or digits (spaces allowed)'),
        v.description('IBAN, with or without spaces.'),
      ),
    ),
    bic: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.regex(/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/, 'must be a BIC of 8 or 11 characters, such as COBADEFFXXX'),
        v.description('BIC (SWIFT code), 8 or 11 characters.'),
      ),
    ),
    account_name: v.optional(text({ min: 1, max: LIMITS.accountName, description: 'Account holder, 1 to 70 characters.' })),
    reference: v.optional(text({ min: 1, max: LIMITS.paymentReference, description: 'Payment reference the payer should quote, 1 to 140 characters.' })),
  },
  'unknown property',
);

export type Payment = v.InferOutput<typeof PaymentSchema>;
