import type { LabelCatalog } from '../invoice/labelKeys.js';

/**
 * The marks some countries' tax law requires on the printed invoice, for our own invoices (the
 * seller's country decides) and received Peppol PINT documents (BT-24 decides):
 * - Australia, New Zealand and Singapore: a GST-registered seller's invoice is titled "Tax Invoice"
 *   (Australia's self-billed one "Recipient Created Tax Invoice") and shows the seller's ABN or
 *   GST registration number. The wording is the law's English; on a page in another language the
 *   catalog's own title is printed under it. A seller with no registration number issues no tax
 *   invoice, so its document keeps the ordinary title. Credit notes keep theirs.
 * - Japan: a qualified invoice shows the issuer's registration number (T + 13 digits), labelled
 *   with the catalog's `qualified_invoice_registration` (登録番号 in Japanese).
 * The labels ABN, GST No. and GST Reg. No. are the names the tax authorities print; they are not
 * words to translate.
 */
const GST_REGISTRATION_LABELS: Readonly<Record<string, string>> = {
  AU: 'ABN',
  NZ: 'GST No.',
  SG: 'GST Reg. No.',
};

const TAX_INVOICE_TITLE = 'Tax Invoice';
const RECIPIENT_CREATED_TITLE = 'Recipient Created Tax Invoice';

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
  const gstLabel = country === undefined ? undefined : GST_REGISTRATION_LABELS[country];
  if (gstLabel !== undefined) return { label: gstLabel, lang: 'en', value };
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
  const taxInvoice =
    !marks.creditNote && marks.registered && marks.country !== undefined && marks.country in GST_REGISTRATION_LABELS;
  if (!taxInvoice) return { documentTitle: localisedTitle, documentTitleLang: null, documentSubtitle: null };
  const legalTitle = marks.selfBilled && marks.country === 'AU' ? RECIPIENT_CREATED_TITLE : TAX_INVOICE_TITLE;
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
  const match = /^urn:peppol:pint:(?:billing|selfbilling)-1@(aunz|sg|jp)-1/.exec(customization.trim());
  if (!match) return undefined;
  if (match[1] === 'sg') return 'SG';
  if (match[1] === 'jp') return 'JP';
  return sellerCountry === 'NZ' ? 'NZ' : 'AU';
}

export const isSelfBilling = (customization: string) =>
  customization.trim().startsWith('urn:peppol:pint:selfbilling-1@');
