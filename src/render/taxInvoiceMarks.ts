import type { LabelCatalog } from '../invoice/labelKeys.js';

/**
 * The marks some countries' tax law requires on the printed invoice, for our own invoices (the
 * seller's country decides) and received Peppol PINT documents (BT-24 decides):
 * - Australia, New Zealand, Singapore and the UAE: a registered seller's invoice is titled "Tax
 *   Invoice" (Australia's self-billed one "Recipient Created Tax Invoice", the UAE's credit note
 *   "Tax Credit Note") and shows the seller's ABN, GST registration number or TRN. The wording is
 *   the law's English; on a page in another language the catalog's own title is printed under it.
 *   A seller with no registration number issues no tax invoice, so its document keeps the ordinary
 *   title. Credit notes keep theirs, except the UAE's.
 * - Malaysia: the e-invoice shows the supplier's TIN, under the label LHDN prints ("TIN"); its title
 *   stays the catalog's.
 * - Japan: a qualified invoice shows the issuer's registration number (T + 13 digits), labelled
 *   with the catalog's `qualified_invoice_registration` (登録番号 in Japanese).
 * The labels ABN, GST No., GST Reg. No., TRN and TIN are the names the tax authorities print; they
 * are not words to translate.
 */
const REGISTRATION_LABELS: Readonly<Record<string, string>> = {
  AU: 'ABN',
  NZ: 'GST No.',
  SG: 'GST Reg. No.',
  AE: 'TRN',
  MY: 'TIN',
};

/** The countries whose registered sellers title their invoices "Tax Invoice". */
const TAX_INVOICE_COUNTRIES: ReadonlySet<string> = new Set(['AU', 'NZ', 'SG', 'AE']);

const TAX_INVOICE_TITLE = 'Tax Invoice';
const RECIPIENT_CREATED_TITLE = 'Recipient Created Tax Invoice';
/** The UAE's wording for a tax credit note (the VAT Executive Regulation's). */
const TAX_CREDIT_NOTE_TITLE = 'Tax Credit Note';

/** A party's tax registration as printed: the label in `lang`, and the number as given. */
export interface TaxRegistrationView {
  label: string;
  lang: string;
  value: string;
}

export function taxRegistrationView(
  country: string | undefined,
  number: string | undefined,
  labels: LabelCatalog,
  language: string,
): TaxRegistrationView | null {
  const value = number?.trim();
  if (!value) return null;
  const authorityLabel = country === undefined ? undefined : REGISTRATION_LABELS[country];
  if (authorityLabel !== undefined) return { label: authorityLabel, lang: 'en', value };
  return { label: country === 'JP' ? labels.qualified_invoice_registration : labels.tax_id, lang: language, value };
}

/** The masthead's title fields of InvoiceView. */
export interface DocumentTitleView {
  documentTitle: string;
  /** "en" when the title is the law's English wording on a page in another language. */
  documentTitleLang: string | null;
  /** The catalog's own title under the legal one, on a page that is not in English. */
  documentSubtitle: string | null;
}

export function documentTitleView(
  localisedTitle: string,
  language: string,
  marks: { country: string | undefined; registered: boolean; creditNote: boolean; selfBilled?: boolean },
): DocumentTitleView {
  const country = marks.country;
  const legalTitle =
    !marks.registered || country === undefined || !TAX_INVOICE_COUNTRIES.has(country)
      ? undefined
      : marks.creditNote
        ? country === 'AE'
          ? TAX_CREDIT_NOTE_TITLE
          : undefined
        : marks.selfBilled && country === 'AU'
          ? RECIPIENT_CREATED_TITLE
          : TAX_INVOICE_TITLE;
  if (legalTitle === undefined)
    return { documentTitle: localisedTitle, documentTitleLang: null, documentSubtitle: null };
  return language === 'en'
    ? { documentTitle: legalTitle, documentTitleLang: null, documentSubtitle: null }
    : { documentTitle: legalTitle, documentTitleLang: 'en', documentSubtitle: localisedTitle };
}

/**
 * The country whose marks a received document carries: the PINT jurisdiction of its BT-24
 * (billing or self-billing; Japan's non-tax invoice has none), Australia or New Zealand by the
 * seller's country. Undefined for every other document.
 */
export function pintMarkCountry(customization: string, sellerCountry: string | undefined): string | undefined {
  const match = /^urn:peppol:pint:(?:billing|selfbilling)-1@(aunz|sg|jp|my|ae)-1/.exec(customization.trim());
  if (!match) return undefined;
  if (match[1] === 'aunz') return sellerCountry === 'NZ' ? 'NZ' : 'AU';
  return match[1]!.toUpperCase();
}

/**
 * The number a party of our own invoice prints as its registration: tax_registration_number, or for
 * a Malaysian party without one the TIN it gives as tax_id (pint-my writes tax_id as BT-32, the TIN),
 * which then is not printed a second time under "Tax ID".
 */
export function registrationNumberOf(party: {
  country?: string | undefined;
  tax_registration_number?: string | undefined;
  tax_id?: string | undefined;
}): { number: string | undefined; fromTaxId: boolean } {
  const own = party.tax_registration_number?.trim();
  if (own) return { number: own, fromTaxId: false };
  const tin = party.country === 'MY' ? party.tax_id?.trim() : undefined;
  return tin ? { number: tin, fromTaxId: true } : { number: undefined, fromTaxId: false };
}

/** Countries whose party tax identifier (BT-31/BT-48) is the registration number printed with their label. */
export const printsIdentifierAsRegistration = (country: string | undefined) =>
  country === 'JP' || (country !== undefined && country !== 'MY' && country in REGISTRATION_LABELS);

export const isSelfBilling = (customization: string) =>
  customization.trim().startsWith('urn:peppol:pint:selfbilling-1@');
