import type { InAllowanceCharge, InboundInvoice } from '../../invoice/inboundInvoice.js';
import type { InboundText } from './inboundText.js';

/** The document-level allowances (BG-20) and charges (BG-21), each with its reason and base. */
export function inboundAllowances(
  doc: InboundInvoice,
  fmt: InboundText,
): { label: string; amount: string; lang: string }[] {
  return doc.allowances.map((item) => ({
    label: allowanceText(item, fmt),
    amount: `${item.charge ? '' : '−'}${fmt.amount(item.amount)}`,
    lang: fmt.userLang(item.reason ?? ''),
  }));
}

export function allowanceText(item: InAllowanceCharge, fmt: InboundText): string {
  const { labels, amount, percent } = fmt;
  const kind =
    item.printedAs === 'pension_fund'
      ? `${labels.inbound_pension_fund} (BG-21)`
      : item.charge
        ? `${labels.inbound_charge} (BG-21)`
        : `${labels.inbound_allowance} (BG-20)`;
  const detail = [
    item.reason,
    item.reasonCode ? `[${item.reasonCode}]` : undefined,
    item.percent !== undefined && item.base !== undefined
      ? `${item.percent} % × ${amount(item.base)}`
      : item.base !== undefined
        ? `${labels.inbound_bt_base_amount} (BT-93): ${amount(item.base)}`
        : undefined,
    item.category
      ? `${item.category}${item.rate !== undefined && item.category !== 'O' ? ` ${percent(item.rate)}` : ''}`
      : undefined,
  ].filter(Boolean);
  return `${kind}: ${item.charge ? '' : '−'}${amount(item.amount)}${detail.length ? ` — ${detail.join(' · ')}` : ''}`;
}
