/**
 * Italy's tax identifiers, with their check characters: the partita IVA (11 digits, the last a
 * Luhn-style check digit; also the codice fiscale of a company) and the codice fiscale of a person
 * (16 characters, the last a check letter over the first 15). The SDI refuses a file whose
 * identifiers fail these checks (controls 00300–00306).
 */

/** True for 11 digits whose last is the partita IVA check digit of the first ten. */
export function isPartitaIva(value: string): boolean {
  if (!/^\d{11}$/.test(value)) return false;
  let sum = 0;
  for (let at = 0; at < 10; at++) {
    const digit = value.charCodeAt(at) - 48;
    // Digits in even places (the 2nd, 4th, …) are doubled, less 9 above 9.
    sum += at % 2 === 0 ? digit : digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
  }
  return (10 - (sum % 10)) % 10 === value.charCodeAt(10) - 48;
}

// The values of a character in an odd place (1st, 3rd, …) of a codice fiscale: digits 0-9 as A-J.
const ODD_VALUES = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
// Omocodia: digits of the date and place may be replaced by these letters, in this order.
const PERSON_PATTERN = /^[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-EHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/;

/** The check letter of the first 15 characters of a person's codice fiscale. */
export function codiceFiscaleCheckLetter(first15: string): string {
  let sum = 0;
  for (let at = 0; at < 15; at++) {
    const char = first15.charCodeAt(at);
    const index = char <= 57 ? char - 48 : char - 65;
    sum += at % 2 === 0 ? (ODD_VALUES[index] ?? 0) : index;
  }
  return String.fromCharCode(65 + (sum % 26));
}

/** A codice fiscale: a person's 16 characters with their check letter, or a company's 11 digits. */
export function isCodiceFiscale(value: string): boolean {
  if (/^\d{11}$/.test(value)) return isPartitaIva(value);
  return PERSON_PATTERN.test(value) && codiceFiscaleCheckLetter(value.slice(0, 15)) === value[15];
}
