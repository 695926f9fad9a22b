import type { Checked } from './iban.js';

/**
 * UPI virtual payment address (NPCI): a user part of letters, digits, dot, hyphen and underscore,
 * "@", and the payment service provider's handle (letters and digits), e.g. merchant.name@okhdfcbank.
 */
const VPA = /^[A-Za-z0-9][A-Za-z0-9._-]{1,99}@[A-Za-z][A-Za-z0-9]{1,63}$/;

export function checkUpiVpa(input: string): Checked {
  if (!VPA.test(input)) {
    return {
      ok: false,
      reason:
        'must be a UPI address (VPA) like name@bank: 2 to 100 letters, digits, ".", "-" or "_", "@", then the bank handle (letters and digits)',
    };
  }
  return { ok: true, value: input };
}
