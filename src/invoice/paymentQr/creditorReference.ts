import { compact, formatIban, type Checked } from './iban.js';
import { mod97 } from './mod97.js';

/** ISO 11649: "RF", 2 check digits, 1 to 21 letters or digits. */
const RF_SHAPE = /^RF\d{2}[A-Z0-9]{1,21}$/;

/**
 * A text that means to be an RF reference: starts with RF and two digits. Such a text is checked
 * as one (a typo in it must not pass as free text); anything else is free text.
 */
export function looksLikeRfReference(input: string): boolean {
  return /^RF\d{2}/i.test(input.replace(/ /g, ''));
}

/** ISO 11649 creditor reference (the Swiss QR-bill's SCOR); mod 97 of the rearranged reference is 1. */
export function checkRfReference(input: string): Checked {
  const reference = compact(input);
  if (!RF_SHAPE.test(reference)) {
    return {
      ok: false,
      reason: 'must be an ISO 11649 creditor reference: RF, 2 check digits, then 1 to 21 letters or digits',
    };
  }
  if (mod97(reference.slice(4) + reference.slice(0, 4)) !== 1) {
    return { ok: false, reason: 'has wrong check digits (ISO 11649 mod 97): check for a typo' };
  }
  return { ok: true, value: reference };
}

/** "RF18539007547034" → "RF18 5390 0754 7034", the printed form. */
export const formatRfReference: (reference: string) => string = formatIban; // the same groups of four
