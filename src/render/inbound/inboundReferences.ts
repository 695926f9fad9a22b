import type { InboundInvoice } from '../../invoice/inboundInvoice.js';
import type { LabelKey } from '../../invoice/labelKeys.js';
import type { InboundText } from './inboundText.js';

/** The references the page names with EN 16931's term in its language, the BT number beside. */
const REFERENCE_TERMS: Record<string, LabelKey> = {
  'BT-8': 'inbound_bt_tax_point_code',
  'BT-11': 'inbound_bt_project',
  'BT-12': 'inbound_bt_contract',
  'BT-14': 'inbound_bt_sales_order',
  'BT-15': 'inbound_bt_receiving_advice',
  'BT-16': 'inbound_bt_despatch_advice',
  'BT-17': 'inbound_bt_tender',
  'BT-18': 'inbound_bt_object',
  'BT-19': 'inbound_bt_accounting',
  'BT-90': 'inbound_bt_creditor_id',
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
      ? [{ label: `${labels.inbound_bt_tax_point_date} (BT-7)`, value: date(doc.taxPointDate), lang: locale.language }]
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
    ...(doc.taxCurrency
      ? [{ label: `${labels.inbound_bt_tax_currency} (BT-6)`, value: doc.taxCurrency, lang: locale.language }]
      : []),
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
  const term = REFERENCE_TERMS[bt];
  return term ? `${labels[term]} (${bt})` : bt;
}
