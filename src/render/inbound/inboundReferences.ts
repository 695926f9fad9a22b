import type { InboundInvoice } from '../../invoice/inboundInvoice.js';
import type { InboundText } from './inboundText.js';

/**
 * EN 16931's own (English) names of the references the label catalogs have no word for; each is
 * printed with its BT number, which is the same in every language.
 */
const REFERENCE_TERMS: Record<string, string> = {
  'BT-8': 'Value added tax point date code',
  'BT-11': 'Project reference',
  'BT-12': 'Contract reference',
  'BT-14': 'Sales order reference',
  'BT-15': 'Receiving advice reference',
  'BT-16': 'Despatch advice reference',
  'BT-17': 'Tender or lot reference',
  'BT-18': 'Invoiced object identifier',
  'BT-19': 'Buyer accounting reference',
  'BT-90': 'Bank assigned creditor identifier',
};

/** The references panel: the document's references, dates and periods, its currencies and type code. */
export function inboundReferences(
  doc: InboundInvoice,
  fmt: InboundText,
): { label: string; value: string; lang: string }[] {
  const { labels, locale, date, userLang } = fmt;
  return [
    ...doc.references.map((reference) => ({
      label: referenceLabel(reference.bt, fmt),
      value: reference.value,
      lang: userLang(reference.value),
    })),
    ...(doc.taxPointDate
      ? [{ label: 'Value added tax point date (BT-7)', value: date(doc.taxPointDate), lang: locale.language }]
      : []),
    ...(doc.periodStart || doc.periodEnd
      ? [
          {
            label: `${labels.inbound_period} (BG-14)`,
            value: `${date(doc.periodStart)} – ${date(doc.periodEnd)}`,
            lang: locale.language,
          },
        ]
      : []),
    ...(doc.delivery?.date
      ? [{ label: `${labels.inbound_delivery_date} (BT-72)`, value: date(doc.delivery.date), lang: locale.language }]
      : []),
    ...(doc.taxCurrency ? [{ label: 'VAT accounting currency (BT-6)', value: doc.taxCurrency, lang: 'en' }] : []),
    { label: `${labels.inbound_type_code} (BT-3)`, value: doc.typeCode, lang: 'en' },
    // The page's word, the law's own name beside it (FA(3)'s Polish terms, InboundInvoice.legalTerms).
    ...(doc.legalTerms ?? []).map((term) => ({
      label: `${labels[term.label]} (${term.element})`,
      value: term.legalName,
      lang: term.lang,
    })),
  ];
}

function referenceLabel(bt: string, { labels }: InboundText): string {
  if (bt === 'BT-10') return `${labels.buyer_reference} (BT-10)`;
  if (bt === 'BT-13') return `${labels.purchase_order} (BT-13)`;
  if (bt === 'BT-25') return `${labels.preceding_invoice} (BT-25)`;
  return `${REFERENCE_TERMS[bt] ?? ''} (${bt})`.trim();
}
