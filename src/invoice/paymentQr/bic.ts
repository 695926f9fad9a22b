import type { Checked } from './iban.js';

/** ISO 9362: 4-letter institution, 2-letter country, 2-character location, optional 3-character branch. */
const BIC = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

export function checkBic(input: string): Checked {
  const bic = input.replace(/ /g, '').toUpperCase();
  if (!BIC.test(bic))
    return { ok: false, reason: 'must be a BIC (ISO 9362): 8 or 11 letters and digits, e.g. DEUTDEFF or DEUTDEFF500' };
  return { ok: true, value: bic };
}
