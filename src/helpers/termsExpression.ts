import * as v from 'valibot';
import { addDays, endOfMonth } from './calendar.js';

/**
 * Payment terms text, as written on invoices, read case-insensitively with any run of spaces
 * between words:
 *   "Net N"            due N days after the invoice date
 *   "D/X Net N"        D% off when paid within X days, otherwise due after N days (D may have up
 *                      to 4 decimals: "1.5/10 Net 45"; a comma after D/X is allowed: "2/10, Net 30")
 *   "Net N EOM"        due N days after the end of the invoice's month ("Net 10 EOM" on an invoice
 *                      of 14 March is due 10 April, the usual reading of end-of-month terms)
 *   "Due on receipt"   due on the invoice date
 * N and X are whole days up to 3650 (ten years); X must be shorter than N.
 */

const MAX_TERM_DAYS = 3650;

export const ACCEPTED_TERMS =
  '"Net N" (e.g. "Net 30"), "D/X Net N" (e.g. "2/10 Net 30"), "Net N EOM" (e.g. "Net 10 EOM") or "Due on receipt"';

/** Where terms only set a due date (an invoice has no field for an early-payment discount). */
export const ACCEPTED_DUE_DATE_TERMS = '"Net N" (e.g. "Net 30"), "Net N EOM" (e.g. "Net 10 EOM") or "Due on receipt"';

export const ParsedTermsSchema = v.object({
  text: v.pipe(v.string(), v.description('The terms written in their standard form, e.g. "2/10 Net 30".')),
  kind: v.picklist(['net', 'discount', 'net_eom', 'due_on_receipt']),
  net_days: v.pipe(
    v.number(),
    v.description('Days after the invoice date (after the month end for EOM) when payment is due.'),
  ),
  discount_percent: v.pipe(
    v.nullable(v.number()),
    v.description('Early-payment discount in percent; null when the terms carry none.'),
  ),
  discount_days: v.pipe(
    v.nullable(v.number()),
    v.description('Days after the invoice date within which the discount applies; null when none.'),
  ),
});

export type ParsedTerms = v.InferOutput<typeof ParsedTermsSchema>;

export type TermsReading = { ok: true; terms: ParsedTerms } | { ok: false; message: string };

const NET = /^net\s+(\d{1,5})$/i;
const NET_EOM = /^net\s+(\d{1,5})\s+eom$/i;
const DISCOUNT = /^(\d{1,2}(?:\.\d{1,4})?)\s*\/\s*(\d{1,5})(?:\s*,\s*|\s+)net\s+(\d{1,5})$/i;
const DUE_ON_RECEIPT = /^due\s+on\s+receipt$/i;

export function parseTerms(text: string, options: { discount: boolean } = { discount: true }): TermsReading {
  const notUnderstood = (): TermsReading => ({
    ok: false,
    message: `must be one of the forms ${options.discount ? ACCEPTED_TERMS : ACCEPTED_DUE_DATE_TERMS}`,
  });
  const trimmed = text.trim();
  if (DUE_ON_RECEIPT.test(trimmed)) {
    return {
      ok: true,
      terms: {
        text: 'Due on receipt',
        kind: 'due_on_receipt',
        net_days: 0,
        discount_percent: null,
        discount_days: null,
      },
    };
  }
  const endOfMonthNet = NET_EOM.exec(trimmed);
  const net = NET.exec(trimmed) ?? endOfMonthNet;
  if (net) {
    const days = Number(net[1]);
    if (days > MAX_TERM_DAYS) return { ok: false, message: `the net period must be at most ${MAX_TERM_DAYS} days` };
    const eom = endOfMonthNet !== null;
    return {
      ok: true,
      terms: {
        text: `Net ${days}${eom ? ' EOM' : ''}`,
        kind: eom ? 'net_eom' : 'net',
        net_days: days,
        discount_percent: null,
        discount_days: null,
      },
    };
  }
  const discount = DISCOUNT.exec(trimmed);
  if (!discount) return notUnderstood();
  if (!options.discount) {
    return {
      ok: false,
      message: `cannot carry an early-payment discount here; use one of the forms ${ACCEPTED_DUE_DATE_TERMS}`,
    };
  }
  const percent = Number(discount[1]);
  const discountDays = Number(discount[2]);
  const netDays = Number(discount[3]);
  if (percent <= 0) return { ok: false, message: 'the discount percent must be greater than 0' };
  if (netDays > MAX_TERM_DAYS) return { ok: false, message: `the net period must be at most ${MAX_TERM_DAYS} days` };
  if (discountDays >= netDays) {
    return {
      ok: false,
      message: `the discount period (${discountDays} days) must be shorter than the net period (${netDays} days)`,
    };
  }
  return {
    ok: true,
    terms: {
      text: `${percent}/${discountDays} Net ${netDays}`,
      kind: 'discount',
      net_days: netDays,
      discount_percent: percent,
      discount_days: discountDays,
    },
  };
}

export function dueDateUnder(terms: ParsedTerms, invoiceDate: string): string {
  const start = terms.kind === 'net_eom' ? endOfMonth(invoiceDate) : invoiceDate;
  return addDays(start, terms.net_days);
}
