import type { LabelKey } from '../../invoice/labelKeys.js';
import type { InboundInvoice, TotalsComparison } from '../../invoice/inboundInvoice.js';
import type { InvoiceView } from '../invoiceView.js';
import type { InboundText } from './inboundText.js';
import { totalFieldWords } from './totalWords.js';

type TotalsView = InvoiceView['totals'];
type AmountRow = TotalsView['taxes'][number];

const nonZero = (text: string | undefined): text is string => text !== undefined && Number(text) !== 0;

/**
 * The totals block with the document's own totals (never recomputed ones): sum of lines,
 * allowances and charges, VAT per group, the VAT total in the tax currency, rounding, prepaid and
 * the amount due.
 */
export function inboundTotals(doc: InboundInvoice, creditNote: boolean, fmt: InboundText): TotalsView {
  const { labels, amount } = fmt;
  const t = doc.totals;
  const prepaid = nonZero(t.prepaid);
  const allowanceTotal = nonZero(t.allowanceTotal) ? amount(t.allowanceTotal) : null;
  const chargeTotal = nonZero(t.chargeTotal) ? amount(t.chargeTotal) : null;
  const taxes: AmountRow[] = [...taxRows(doc, fmt)];
  // With charges, the rows go allowances, charges, taxable amount (the totals partial's own
  // discount rows have no place for a charge between them).
  if (chargeTotal !== null) {
    taxes.unshift(
      ...(allowanceTotal !== null ? [{ label: `${labels.discount} (BT-107)`, amount: `−${allowanceTotal}` }] : []),
      { label: `${labels.inbound_charges} (BT-108)`, amount: chargeTotal },
      { label: `${labels.taxable_amount} (BT-109)`, amount: amount(t.taxBasis) },
    );
  }
  return {
    // MINIMUM and BASIC WL may state no line total (BT-106): the taxable amount stands in.
    subtotal: amount(t.lineTotal ?? t.taxBasis),
    discount: chargeTotal === null ? allowanceTotal : null,
    taxable: chargeTotal === null && allowanceTotal !== null ? amount(t.taxBasis) : null,
    taxes,
    totalLabel: creditNote ? labels.total_credit : labels.total_due,
    total: prepaid ? amount(t.grandTotal) : amount(t.duePayable ?? t.grandTotal),
    amountPaid: prepaid ? amount(t.prepaid) : null,
    balanceDue: prepaid ? amount(t.duePayable) : null,
  };
}

/** VAT per group, the VAT total in the tax currency (BT-111), and rounding with its grand total. */
function taxRows(doc: InboundInvoice, fmt: InboundText): AmountRow[] {
  const { labels, amount, percent } = fmt;
  const t = doc.totals;
  const rounded = nonZero(t.rounding);
  return [
    ...doc.breakdown.map((group) => ({
      label: `${labels.tax} (${labels[`category_${group.category}` as LabelKey] ?? group.category}${group.category === 'O' ? '' : ` ${percent(group.rate)}`})`,
      amount: amount(group.tax),
    })),
    ...taxCurrencyRow(doc, fmt),
    ...(rounded && !nonZero(t.prepaid) ? [{ label: `${labels.total} (BT-112)`, amount: amount(t.grandTotal) }] : []),
    ...(rounded ? [{ label: labels.rounding, amount: amount(t.rounding) }] : []),
  ];
}

/** The VAT breakdown table (more than one group) and the exemption reasons under it. */
export function inboundTaxBreakdown(
  doc: InboundInvoice,
  fmt: InboundText,
): Pick<InvoiceView, 'vatBreakdown' | 'exemptions'> {
  const { labels, amount, percent, userLang } = fmt;
  return {
    vatBreakdown:
      doc.breakdown.length > 1
        ? doc.breakdown.map((group) => ({
            category: labels[`category_${group.category}` as LabelKey] ?? group.category,
            rate: percent(group.rate),
            taxable: amount(group.basis),
            tax: amount(group.tax),
          }))
        : null,
    exemptions: doc.breakdown
      .filter((group) => group.exemptionReason !== undefined || group.exemptionCode !== undefined)
      .map((group) => {
        const text = [group.category, group.exemptionCode, group.exemptionReason].filter(Boolean).join(' · ');
        return { lang: userLang(text), text };
      }),
  };
}

/** A difference's label: the total's word, its BT number (or FA(3) element) beside where that adds one. */
function differenceLabel(field: string, bt: string, { labels }: InboundText): string {
  const words = totalFieldWords(field, labels);
  return words.endsWith(`(${bt})`) ? words : `${words} (${bt})`;
}

/** Where the document's totals disagree with its lines: the document's figure beside ours. */
export function inboundDifferences(
  totals: TotalsComparison,
  fmt: InboundText,
): { label: string; document: string; recomputed: string }[] {
  return totals.differences.map((difference) => ({
    label: differenceLabel(difference.field, difference.bt, fmt),
    document: fmt.computed(difference.document),
    recomputed: fmt.computed(difference.recomputed),
  }));
}

/**
 * The VAT total in the tax currency (BT-111, with BT-6), as the readers give it: its amount and
 * currency ("3700.65 SGD"). Printed with that currency's code and decimals.
 */
function taxCurrencyRow(doc: InboundInvoice, fmt: InboundText): AmountRow[] {
  const stated = doc.totals.taxTotalAccounting?.trim();
  if (!stated) return [];
  const match = /^(\S+)(?:\s+([A-Z]{3}))?$/.exec(stated);
  const currency = match?.[2] ?? doc.taxCurrency;
  if (!match || currency === undefined) return [{ label: `${fmt.labels.tax} (BT-111)`, amount: stated }];
  return [
    {
      label: `${fmt.labels.tax_currency_total.replace('{currency}', currency)} (BT-111)`,
      amount: `${fmt.amountIn(match[1]!, currency)} ${currency}`,
    },
  ];
}
