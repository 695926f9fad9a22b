import type { InboundInvoice } from '../../invoice/inboundInvoice.js';
import { UNIT_CODES_WITH_NAMES, type LabelKey } from '../../invoice/labelKeys.js';
import { formatQuantity } from '../../invoice/localeFormat.js';
import type { LineView } from '../invoiceView.js';
import { allowanceText } from './inboundAllowances.js';
import { identifierText } from './partyIdentifiers.js';
import type { InboundText } from './inboundText.js';

const UNIT_NAMES = new Set<string>(UNIT_CODES_WITH_NAMES);

/** The line table's rows: the document's own line amounts, with the unit's name where we have one. */
export function inboundLines(doc: InboundInvoice, fmt: InboundText): LineView[] {
  const { locale, labels, amount, percent, userLang } = fmt;
  return doc.lines.map((line, index): LineView => {
    const quantity = formatQuantity(line.quantity, locale);
    const unit = line.unitCode;
    const base =
      line.baseQuantity !== undefined && line.baseQuantity !== '1'
        ? ` / ${formatQuantity(line.baseQuantity, locale)}`
        : '';
    return {
      number: index + 1,
      lang: userLang(line.name),
      description: line.name,
      itemCode: line.sellerItemId ?? null,
      quantity:
        unit === undefined
          ? quantity
          : `${quantity}\u00a0${UNIT_NAMES.has(unit) ? labels[`unit_${unit}` as LabelKey] : unit}`,
      unitPrice: `${amount(line.price)}${base}`,
      rate: line.category === 'O' ? '' : percent(line.rate),
      amount: amount(line.net),
    };
  });
}

/** The line facts the readers name by BT number (readSyntax.ts facts) or by FA(3) element, in the page's words. */
const FACT_WORDS: Record<string, LabelKey> = {
  'BT-158': 'inbound_bt_classification',
  'BT-159': 'inbound_bt_origin',
  'BT-132': 'inbound_bt_order_line',
  'BT-133': 'inbound_bt_accounting',
  'BT-128': 'inbound_bt_object',
  P_12: 'vat_rate',
  StanPrzed: 'inbound_ctx_correction',
};

/** A fact's label: the page's word with its BT number or element beside; an item attribute's own name (BT-160) as it is. */
function factLabel(label: string, { labels }: InboundText): string {
  const word = FACT_WORDS[label];
  return word ? `${labels[word]} (${label})` : label;
}

/** What a line states beyond the table's columns (descriptions, identifiers, periods, allowances). */
export function inboundLineDetails(
  doc: InboundInvoice,
  fmt: InboundText,
): { line: string; facts: string[]; lang: string }[] {
  const { labels, amount, date, userLang } = fmt;
  // A category the VAT breakdown lists already is not repeated on the line.
  const inBreakdown = new Set(doc.breakdown.map((group) => group.category));
  return doc.lines
    .map((line, index) => {
      const facts = [
        line.description && line.description !== line.name ? line.description : undefined,
        line.note ? `${labels.notes}: ${line.note}` : undefined,
        line.buyerItemId ? `${labels.item_code} (${labels.bill_to}): ${line.buyerItemId}` : undefined,
        line.standardItemId ? identifierText(line.standardItemId, labels) : undefined,
        line.grossPrice ? `${labels.unit_price}: ${amount(line.grossPrice)}` : undefined,
        line.priceDiscount ? `${labels.discount}: −${amount(line.priceDiscount)}` : undefined,
        line.periodStart || line.periodEnd
          ? `${labels.inbound_period}: ${date(line.periodStart)} – ${date(line.periodEnd)}`
          : undefined,
        ...line.allowances.map((item) => allowanceText(item, fmt)),
        ...line.facts.map((fact) => `${factLabel(fact.label, fmt)}: ${fact.value}`),
        // The rate column shows the rate; the category only where the rate does not imply it.
        line.category &&
        !inBreakdown.has(line.category) &&
        !(line.category === 'S' && Number(line.rate) > 0) &&
        !(line.category === 'Z' && Number(line.rate ?? 0) === 0)
          ? `${labels.vat_category}: ${line.category}`
          : undefined,
      ].filter((fact): fact is string => fact !== undefined);
      return {
        line: `${index + 1}${line.id && line.id !== String(index + 1) ? ` (${line.id})` : ''}`,
        facts,
        lang: userLang(facts.join(' ')),
      };
    })
    .filter((detail) => detail.facts.length > 0);
}
