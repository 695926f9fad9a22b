/**
 * The identifier schemes (ISO/IEC 6523 ICD codes and the Peppol EAS list) this service accepts for
 * electronic addresses (BT-34, BT-49) and legal registration identifiers (BT-30, BT-47), each with
 * its own format and check digits: an identifier the receiving network would reject is refused
 * before payment. The checks are written from each scheme's public definition (GS1 for GLN, INSEE
 * for SIREN/SIRET, the Belgian KBO, KoSIT's Leitweg-ID specification, …).
 */
export interface IdentifierScheme {
  code: string;
  name: string;
  /** What a valid identifier looks like, for the error message. */
  format: string;
  valid(id: string): boolean;
  /** Usable as an electronic address (EAS) / as a legal registration scheme (ICD). */
  eas: boolean;
  icd: boolean;
  /** The official rule that checks this format, where one does (the e-invoice routes name it). */
  rule?: string;
}

const digits = (length: number) => new RegExp(`^[0-9]{${length}}$`);

/** GS1 check digit: weights 3 and 1 from the right (the check digit excluded). */
export function gs1CheckDigitOk(value: string): boolean {
  const body = value.slice(0, -1);
  let sum = 0;
  for (let at = 0; at < body.length; at++) sum += Number(body[body.length - 1 - at]) * (at % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10 === Number(value.at(-1));
}

/** Luhn (SIREN, SIRET, Swedish organisation numbers). */
export function luhnOk(value: string): boolean {
  let sum = 0;
  for (let at = 0; at < value.length; at++) {
    let digit = Number(value[value.length - 1 - at]);
    if (at % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Australian Business Number: first digit minus 1, weights 10,1,3,…,19, the sum divisible by 89 (ATO). */
export function abnOk(id: string): boolean {
  if (!/^[0-9]{11}$/.test(id)) return false;
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const sum = [...id].reduce((total, digit, at) => total + (Number(digit) - (at === 0 ? 1 : 0)) * weights[at]!, 0);
  return sum % 89 === 0;
}

/** Japanese corporate number: the first digit is 9 − (Σ digit × 1 or 2 alternating from the right) mod 9 (National Tax Agency). */
export function jpCorporateNumberOk(id: string): boolean {
  const body = [...id.slice(1)].map(Number);
  const sum = body.reduce((total, digit, at) => total + digit * ((body.length - at) % 2 === 1 ? 1 : 2), 0);
  return 9 - (sum % 9) === Number(id[0]);
}

/** Croatian OIB: 11 digits, ISO 7064 MOD 11,10 check digit. */
export function oibOk(id: string): boolean {
  if (!/^[0-9]{11}$/.test(id)) return false;
  let rest = 10;
  for (const digit of id.slice(0, 10)) {
    rest = (rest + Number(digit)) % 10;
    rest = ((rest === 0 ? 10 : rest) * 2) % 11;
  }
  return (11 - rest) % 10 === Number(id[10]);
}

/** Belgian enterprise number: the last two digits are 97 − (the first eight mod 97). */
export function kboOk(value: string): boolean {
  return digits(10).test(value) && 97 - (Number(value.slice(0, 8)) % 97) === Number(value.slice(8));
}

/** ISO/IEC 7064 MOD 97-10 over digits and letters (A = 10 … Z = 35), as BigInt-free chunks. */
function mod97(text: string): number {
  let rest = 0;
  for (const char of text.toUpperCase()) {
    const value = /[0-9]/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of value) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest;
}

/**
 * Leitweg-ID (KoSIT, "Formatspezifikation Leitweg-ID" 2.0): coarse address of 2 to 12 digits, an
 * optional fine address of up to 30 letters and digits, and two check digits (ISO/IEC 7064 MOD
 * 97-10 over the whole ID without hyphens), e.g. 04011000-12345-03.
 */
const LEITWEG_ID = /^([0-9]{2,12})(?:-([A-Za-z0-9]{1,30}))?-([0-9]{2})$/;

export function leitwegIdOk(value: string): boolean {
  const match = LEITWEG_ID.exec(value);
  if (!match) return false;
  const body = `${match[1]}${match[2] ?? ''}`;
  return mod97(`${body}${match[3]}`) === 1;
}

/** Norwegian organisation number: 9 digits, mod 11 with weights 3 2 7 6 5 4 3 2. */
function norwegianOk(value: string): boolean {
  if (!digits(9).test(value)) return false;
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((total, weight, at) => total + weight * Number(value[at]), 0);
  const check = 11 - (sum % 11);
  return (check === 11 ? 0 : check) === Number(value[8]);
}

/** Local part and domain as the party email field checks them (a single @, a dot in the domain). */
const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(?:\.[^\s@.]+)+$/;

const schemes: IdentifierScheme[] = [
  {
    code: '0002',
    name: 'French SIREN',
    format: '9 digits with a valid Luhn check digit',
    valid: (id) => digits(9).test(id) && luhnOk(id),
    eas: true,
    icd: true,
    rule: 'BR-FR-32',
  },
  {
    code: '0007',
    name: 'Swedish organisation number',
    format: '10 digits with a valid Luhn check digit',
    valid: (id) => digits(10).test(id) && luhnOk(id),
    eas: true,
    icd: true,
    rule: 'PEPPOL-COMMON-R049',
  },
  {
    code: '0009',
    name: 'French SIRET',
    format: '14 digits with a valid Luhn check digit',
    valid: (id) => digits(14).test(id) && luhnOk(id),
    eas: true,
    icd: true,
  },
  { code: '0060', name: 'DUNS number', format: '9 digits', valid: (id) => digits(9).test(id), eas: true, icd: true },
  {
    code: '0088',
    name: 'GS1 GLN',
    format: '13 digits with a valid GS1 check digit',
    valid: (id) => digits(13).test(id) && gs1CheckDigitOk(id),
    eas: true,
    icd: true,
    rule: 'PEPPOL-COMMON-R040',
  },
  {
    code: '0106',
    name: 'Dutch KvK number',
    format: '8 digits',
    valid: (id) => digits(8).test(id),
    eas: true,
    icd: true,
    rule: 'PEPPOL-COMMON-R054',
  },
  {
    code: '0184',
    name: 'Danish CVR number',
    format: '8 digits',
    valid: (id) => digits(8).test(id),
    eas: true,
    icd: true,
    rule: 'PEPPOL-COMMON-R042',
  },
  {
    code: '0190',
    name: 'Dutch OIN',
    format: '20 digits',
    valid: (id) => digits(20).test(id),
    eas: true,
    icd: true,
    rule: 'PEPPOL-COMMON-R055',
  },
  {
    code: '0192',
    name: 'Norwegian organisation number',
    format: '9 digits with a valid mod 11 check digit',
    valid: norwegianOk,
    eas: true,
    icd: true,
    rule: 'PEPPOL-COMMON-R041',
  },
  {
    code: '0204',
    name: 'Leitweg-ID (German public sector)',
    format: 'a Leitweg-ID such as 04011000-12345-03 with valid check digits (ISO/IEC 7064 MOD 97-10)',
    valid: leitwegIdOk,
    eas: true,
    icd: true,
  },
  {
    code: '0208',
    name: 'Belgian enterprise number (KBO/BCE)',
    format: '10 digits whose last two are 97 − (the first eight mod 97), e.g. 0123456749',
    valid: kboOk,
    eas: true,
    icd: true,
    rule: 'PEPPOL-COMMON-R043',
  },
  {
    code: '0225',
    name: 'French electronic address (annuaire PPF)',
    format: '1 to 125 letters, digits and + - _ .',
    valid: (id) => /^[A-Za-z0-9+\-_.]{1,125}$/.test(id),
    eas: true,
    icd: false,
    rule: 'BR-FR-23',
  },
  {
    code: '9925',
    name: 'Belgian VAT number',
    format: 'BE followed by 10 digits (a valid KBO number)',
    valid: (id) => /^BE[0-9]{10}$/.test(id) && kboOk(id.slice(2)),
    eas: true,
    icd: false,
  },
  {
    code: '9930',
    name: 'German VAT number',
    format: 'DE followed by 9 digits',
    valid: (id) => /^DE[0-9]{9}$/.test(id),
    eas: true,
    icd: false,
  },
  {
    code: '9957',
    name: 'French VAT number',
    format: 'FR followed by 2 letters or digits and the 9-digit SIREN',
    valid: (id) => /^FR[0-9A-Z]{2}[0-9]{9}$/.test(id),
    eas: true,
    icd: false,
  },
  // The Peppol PINT markets and Croatia (docs/e-invoices-pint.md).
  {
    code: '0151',
    name: 'Australian Business Number (ABN)',
    format: '11 digits with valid ABN check digits',
    valid: abnOk,
    eas: true,
    icd: true,
  },
  {
    code: '0188',
    name: 'Japanese corporate number',
    format: '13 digits with a valid check digit (the first)',
    valid: (id) => digits(13).test(id) && jpCorporateNumberOk(id),
    eas: true,
    icd: true,
  },
  {
    code: '0195',
    name: 'Singapore UEN',
    format: 'SGUEN followed by the UEN, e.g. SGUEN200212345Z (or the UEN alone as a legal registration)',
    valid: (id) => /^(?:SGUEN)?(?:[0-9]{8}[A-Z]|(?:19|20)[0-9]{7}[A-Z]|[RST][0-9]{2}[A-Z]{2}[0-9]{4}[A-Z])$/.test(id),
    eas: true,
    icd: true,
  },
  {
    code: '0230',
    name: 'Malaysian Peppol identifier',
    format: '1 to 50 letters and digits (the TIN or BRN)',
    valid: (id) => /^[0-9A-Za-z-]{1,50}$/.test(id),
    eas: true,
    icd: true,
  },
  {
    code: '0235',
    name: 'UAE tax identification number',
    format: '10 digits (TIN) or 15 digits (TRN), starting with 1, or a predefined endpoint 99000000xx',
    // The predefined endpoints stand for a buyer outside the network (the official PINT AE examples
    // "Exports - predefined endpoint" and "Standard tax invoice - predefined endpoint": 9900000099, 9900000098).
    valid: (id) => /^(?:1[0-9]{9}|1[0-9]{14}|99000000[0-9]{2})$/.test(id),
    eas: true,
    icd: true,
  },
  {
    code: '9934',
    name: 'Croatian VAT number',
    format: 'HR followed by the 11-digit OIB with a valid check digit',
    valid: (id) => /^HR[0-9]{11}$/.test(id) && oibOk(id.slice(2)),
    eas: true,
    icd: false,
  },
  {
    code: 'EM',
    name: 'e-mail address',
    format: 'an e-mail address such as invoices@example.com',
    valid: (id) => EMAIL.test(id) && id.length <= 254,
    eas: true,
    icd: false,
  },
];

export const IDENTIFIER_SCHEMES: ReadonlyMap<string, IdentifierScheme> = new Map(
  schemes.map((scheme) => [scheme.code, scheme]),
);
export const EAS_CODES = schemes.filter((scheme) => scheme.eas).map((scheme) => scheme.code) as [string, ...string[]];
export const ICD_CODES = schemes.filter((scheme) => scheme.icd).map((scheme) => scheme.code) as [string, ...string[]];

export function describeSchemes(codes: readonly string[]): string {
  return codes.map((code) => `${code} ${IDENTIFIER_SCHEMES.get(code)!.name}`).join(', ');
}
