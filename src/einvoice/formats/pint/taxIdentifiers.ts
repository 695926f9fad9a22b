import { abnOk, jpCorporateNumberOk } from '../../../invoice/partyIdentifiers.js';

/**
 * The tax registration identifiers of the Peppol PINT markets, each with its public format and,
 * where the issuing authority publishes one, its check digits. A number the tax authority could
 * never have issued is refused before payment; the official PINT rules check only the shape
 * (aligned-ibr-jp-01 for Japan, ibr-132-ae for the UAE), so the shape checks are exported apart
 * for reading received documents under exactly the official rules.
 */
export interface TaxIdentifier {
  /** The jurisdiction's name for it, for messages. */
  name: string;
  /** What a valid one looks like. */
  format: string;
  /** Shape and check digits. */
  valid(id: string): boolean;
}

const digitsOf = (text: string) => [...text].map(Number);

/**
 * New Zealand GST number (= IRD number): 8 or 9 digits between 10,000,000 and 150,000,000; the
 * last digit is a mod-11 check digit over the first eight (weights 3,2,7,6,5,4,3,2, or 7,4,3,2,5,2,7,6
 * when the first weighting gives 10), as Inland Revenue's validation specification describes.
 */
function nzGstOk(raw: string): boolean {
  const id = raw.replace(/-/g, '');
  if (!/^[0-9]{8,9}$/.test(id)) return false;
  const value = Number(id);
  if (value <= 10_000_000 || value >= 150_000_000) return false;
  const padded = id.padStart(9, '0');
  const body = digitsOf(padded.slice(0, 8));
  const check = Number(padded[8]);
  for (const weights of [
    [3, 2, 7, 6, 5, 4, 3, 2],
    [7, 4, 3, 2, 5, 2, 7, 6],
  ]) {
    const rest = body.reduce((sum, digit, at) => sum + digit * weights[at]!, 0) % 11;
    const expected = rest === 0 ? 0 : 11 - rest;
    if (expected !== 10) return expected === check;
  }
  return false;
}

/**
 * Singapore UEN (businesses nnnnnnnnX, local companies yyyynnnnnX, other entities TyyPQnnnnX) or a
 * GST registration number of the M/MR series (M2-1234567-K, MR85004322). IRAS publishes no check
 * digit algorithm for these, so the shape is checked.
 */
const SG_UEN = /^(?:[0-9]{8}[A-Z]|(?:19|20)[0-9]{2}[0-9]{5}[A-Z]|[RST][0-9]{2}[A-Z]{2}[0-9]{4}[A-Z])$/;
const SG_GST_M = /^M[0-9A-Z]-?[0-9]{7}-?[0-9A-Z]$/;
const sgGstOk = (id: string) => SG_UEN.test(id) || SG_GST_M.test(id);

/**
 * Japan's qualified-invoice registration number: T and the 13-digit corporate number, whose first
 * digit checks the other twelve (National Tax Agency: 9 − Σ digit × (1 or 2, alternating from the
 * right) mod 9).
 */
export const JP_REGISTRATION_SHAPE = /^T[0-9]{13}$/;
const jpRegistrationOk = (id: string) => JP_REGISTRATION_SHAPE.test(id) && jpCorporateNumberOk(id.slice(1));

/** Malaysian TIN (LHDN): a type prefix (IG individuals; C, CS, D, E, F, FA, PT, TA, TC, TN, TR, TP, J, LE) and 8 to 12 digits. */
const MY_TIN = /^(?:IG|C|CS|D|E|F|FA|PT|TA|TC|TN|TR|TP|J|LE)[0-9]{8,12}$/;

/** UAE Tax Registration Number as PINT AE requires it (ibr-132-ae): 15 digits, starting with 1, ending with 03. */
export const AE_TRN = /^1[0-9]{12}03$/;

/** The tax identifier each PINT market's seller (and buyer) is registered under, by country. */
export const TAX_IDENTIFIERS: Readonly<Record<string, TaxIdentifier>> = {
  AU: { name: 'Australian Business Number (ABN)', format: '11 digits with valid ABN check digits', valid: abnOk },
  NZ: {
    name: 'New Zealand GST number',
    format: '8 or 9 digits (dashes allowed) with a valid IRD check digit',
    valid: nzGstOk,
  },
  SG: {
    name: 'Singapore GST registration number',
    format: 'a UEN (e.g. 200212345Z, 53012345D, T08GA0028A) or an M-series number (e.g. M2-1234567-K)',
    valid: sgGstOk,
  },
  JP: {
    name: 'Japanese qualified-invoice registration number',
    format: 'T followed by the 13-digit corporate number with a valid check digit (e.g. T8010001008843)',
    valid: jpRegistrationOk,
  },
  MY: {
    name: 'Malaysian TIN',
    format: 'a type prefix (IG, C, CS, D, E, F, FA, PT, TA, TC, TN, TR, TP, J, LE) followed by 8 to 12 digits',
    valid: (id) => MY_TIN.test(id),
  },
  AE: {
    name: 'UAE Tax Registration Number (TRN)',
    format: '15 digits starting with 1 and ending with 03',
    valid: (id) => AE_TRN.test(id),
  },
};
