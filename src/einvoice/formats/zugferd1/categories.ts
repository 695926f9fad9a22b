import type { InboundInvoice } from '../../../invoice/inboundInvoice.js';

/**
 * ZUGFeRD 1.0 BASIC has no VAT category code (its tax elements hold only the type and the rate),
 * and COMFORT producers often left it out too. A positive rate can only be EN 16931's category S
 * (every other category is charged at 0 %), so a line, allowance, charge or VAT group with a
 * positive rate and no category is read as S: the groups then meet their lines, and the totals are
 * compared as the document meant them. A 0 % rate names no category (Z, E, AE, K, G): left empty.
 * A line that states no tax at all (BASIC's lines) is in the document's VAT group when it has one.
 */
const positive = (rate: string | undefined) => rate !== undefined && /^\+?0*[1-9]|^\+?0*\.\d*[1-9]/.test(rate.trim());

const standard = <T extends { category: string | undefined; rate: string | undefined }>(item: T): T =>
  !item.category && positive(item.rate) ? { ...item, category: 'S' } : item;

export function withImpliedCategories(invoice: InboundInvoice): InboundInvoice {
  const breakdown = invoice.breakdown.map((group) =>
    !group.category && positive(group.rate) ? { ...group, category: 'S' } : group,
  );
  // BASIC lines carry no tax at all: with one VAT group in the document, every line is in it.
  const only = breakdown.length === 1 ? breakdown[0] : undefined;
  const inOnlyGroup = <T extends { category: string | undefined; rate: string | undefined }>(item: T): T =>
    only && !item.category && item.rate === undefined
      ? { ...item, category: only.category || undefined, rate: only.rate }
      : item;
  return {
    ...invoice,
    lines: invoice.lines.map((line) => ({
      ...standard(inOnlyGroup(line)),
      allowances: line.allowances.map(standard),
    })),
    allowances: invoice.allowances.map(standard),
    breakdown,
  };
}
