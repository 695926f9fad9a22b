import type { LabelCatalog, LabelKey } from '../../invoice/labelKeys.js';

/** The totals (TotalsComparison's keys, BT-106…BT-115) by the words the totals block prints them with. */
const TOTAL_WORDS: Record<string, LabelKey> = {
  line_total: 'subtotal',
  allowance_total: 'discount',
  charge_total: 'inbound_charges',
  tax_basis: 'taxable_amount',
  tax_total: 'tax',
  grand_total: 'total',
  prepaid: 'amount_paid',
  rounding: 'rounding',
  due_payable: 'total_due',
};

/**
 * A compared total (TotalDifference.field) in the page's words, never its JSON name: a total, a
 * line's net amount (`lines[2].net`), a VAT group's taxable amount or VAT (`vat_breakdown[0].tax`),
 * or an FA(3) sum (`P_13_1`, printed under its word with the element, its name in the law, beside).
 */
export function totalFieldWords(field: string, labels: LabelCatalog): string {
  const total = TOTAL_WORDS[field];
  if (total) return labels[total];
  const line = /^lines\[(\d+)\]\.net$/.exec(field);
  if (line) return `${labels.inbound_ctx_line} ${Number(line[1]) + 1}: ${labels.amount}`;
  const group = /^vat_breakdown\[(\d+)\]\.(basis|tax)$/.exec(field);
  if (group)
    return `${labels.vat_breakdown} ${Number(group[1]) + 1}: ${group[2] === 'basis' ? labels.vat_taxable : labels.vat_amount}`;
  const sum = /^P_1([34])_\w+$/.exec(field);
  if (sum) return `${sum[1] === '3' ? labels.taxable_amount : labels.vat_amount} (${field})`;
  return field;
}
