/**
 * Spain's tax identification number (NIF) in its three shapes, each with its check character
 * (Orden EHA/451/2008 and RD 1065/2007 art. 18-22, as every Spanish validator implements them):
 * - DNI: 8 digits and a letter, TRWAGMYFPDXBNJZSQVHLCKE[number mod 23];
 * - NIE: X, Y or Z (read as 0, 1, 2) and 7 digits and the same letter; K, L, M and 7 digits too;
 * - an entity's NIF (formerly CIF): its letter, 7 digits and a control computed from the digits
 *   (odd positions doubled, digit sums added): a digit for A, B, E, H, a letter (JABCDEFGHI) for
 *   N, P, Q, R, S, W, either for the others.
 * AEAT itself checks a NIF against its census (codes 4104, 1110); a wrong check character is the
 * one failure of those a request can be refused for before anything is written.
 */
const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const CONTROL_LETTERS = 'JABCDEFGHI';
const ENTITY_DIGIT_ONLY = 'ABEH';
const ENTITY_LETTER_ONLY = 'NPQRSW';

type NifKind = 'dni' | 'nie' | 'entity';

function nifKind(nif: string): NifKind | undefined {
  if (/^\d{8}[A-Z]$/.test(nif)) return 'dni';
  if (/^[XYZKLM]\d{7}[A-Z]$/.test(nif)) return 'nie';
  if (/^[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]$/.test(nif)) return 'entity';
  return undefined;
}

export function isValidNif(nif: string): boolean {
  const kind = nifKind(nif);
  if (kind === 'dni') return DNI_LETTERS[Number(nif.slice(0, 8)) % 23] === nif[8];
  if (kind === 'nie') {
    const lead = 'XYZ'.indexOf(nif[0]!);
    const number = Number(`${lead >= 0 ? lead : ''}${nif.slice(1, 8)}`);
    return DNI_LETTERS[number % 23] === nif[8];
  }
  if (kind === 'entity') return entityControlMatches(nif);
  return false;
}

function entityControlMatches(nif: string): boolean {
  const digits = nif.slice(1, 8);
  let sum = 0;
  for (let at = 0; at < 7; at += 1) {
    const digit = Number(digits[at]);
    if (at % 2 === 1) sum += digit;
    else sum += Math.floor((digit * 2) / 10) + ((digit * 2) % 10);
  }
  const control = (10 - (sum % 10)) % 10;
  const given = nif[8]!;
  const letter = nif[0]!;
  const asDigit = given === String(control);
  const asLetter = given === CONTROL_LETTERS[control];
  if (ENTITY_DIGIT_ONLY.includes(letter)) return asDigit;
  if (ENTITY_LETTER_ONLY.includes(letter)) return asLetter;
  return asDigit || asLetter;
}

/** The NIF of a Spanish VAT identifier (ES + the NIF), undefined for any other identifier. */
export function nifOfVatId(vatId: string | undefined): string | undefined {
  const match = /^ES([0-9A-Z]{9})$/.exec(vatId ?? '');
  return match ? match[1] : undefined;
}
