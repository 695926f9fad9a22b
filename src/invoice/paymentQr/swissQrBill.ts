/**
 * The Swiss QR Code's data (Swiss Payment Standards, Implementation Guidelines QR-bill v2.3,
 * chapter 4): 31 elements up to the trailer EPD, one per line, LF between them. Addresses are
 * structured (type S; the combined type K is no longer accepted from November 2025); the
 * ultimate creditor is reserved and stays empty.
 */
export interface SwissAddress {
  name: string;
  street?: string | undefined;
  buildingNumber?: string | undefined;
  postalCode: string;
  town: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

type SwissReferenceType = 'QRR' | 'SCOR' | 'NON';

export interface SwissQrFields {
  /** IBAN or QR-IBAN, electronic form. */
  account: string;
  creditor: SwissAddress;
  /** "1949.75", or empty for an open amount. */
  amount?: string | undefined;
  currency: 'CHF' | 'EUR';
  debtor?: SwissAddress | undefined;
  referenceType: SwissReferenceType;
  reference?: string | undefined;
  /** Unstructured message, at most 140 characters. */
  message?: string | undefined;
  /** Bill information (e.g. //S1/…), at most 140 characters together with the message. */
  billInformation?: string | undefined;
}

export const SWISS_LIMITS = {
  name: 70,
  street: 70,
  buildingNumber: 16,
  postalCode: 16,
  town: 35,
  message: 140,
  minAmountMinor: 1n,
  maxAmountMinor: 99_999_999_999n,
  /** Whole payload, characters (IG 4.2.1: at most 997). */
  payloadChars: 997,
} as const;

/**
 * The characters the IG allows in the data (4.1.1, extended Latin since v2.2): Basic Latin,
 * Latin-1 Supplement and Latin Extended-A, Ș ș Ț ț and €. Anything else is refused, not replaced.
 */
export const SWISS_CHARACTERS = /^[\u0020-\u007E\u00A0-\u017F\u0218-\u021B\u20AC]*$/u;

function address(value: SwissAddress | undefined): string[] {
  if (!value) return ['', '', '', '', '', '', ''];
  return ['S', value.name, value.street ?? '', value.buildingNumber ?? '', value.postalCode, value.town, value.country];
}

export function swissQrPayload(fields: SwissQrFields): string {
  if ((fields.referenceType === 'NON') !== (fields.reference === undefined))
    throw new Error('swissQrPayload: NON takes no reference, QRR and SCOR need one');
  const lines = [
    'SPC',
    '0200',
    '1', // UTF-8, restricted to SWISS_CHARACTERS
    fields.account,
    ...address(fields.creditor),
    ...address(undefined), // ultimate creditor: for future use, must stay empty
    fields.amount ?? '',
    fields.currency,
    ...address(fields.debtor),
    fields.referenceType,
    fields.reference ?? '',
    fields.message ?? '',
    'EPD',
  ];
  if (fields.billInformation) lines.push(fields.billInformation);
  return lines.join('\n');
}
