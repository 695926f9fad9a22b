/**
 * ISO 7064 MOD 97-10, the check shared by IBANs (ISO 13616) and RF creditor references
 * (ISO 11649): letters count as 10 (A) … 35 (Z), and a valid string, rearranged as each standard
 * says, leaves remainder 1. Digit by digit, so the number never exceeds 2 digits + 1.
 */
export function mod97(alphanumeric: string): number {
  let remainder = 0;
  for (const char of alphanumeric) {
    const value = Number.parseInt(char, 36);
    if (Number.isNaN(value)) throw new Error(`mod97: ${JSON.stringify(char)} is not a letter or digit`);
    // A letter stands for two digits.
    remainder = value >= 10 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder;
}

/** Letters and digits only, upper case: what both standards check. */
export const ALPHANUMERIC = /^[A-Z0-9]+$/;
