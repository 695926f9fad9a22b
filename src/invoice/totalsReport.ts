import * as v from 'valibot';
import { CURRENCIES, CURRENCY_CODES } from './currencies.js';
import { decimalFromNumber, decimalToString, significantScale } from './decimal.js';
import { formatDecimal, toMoney } from './money.js';
import type { PreparedInvoice } from './prepareInvoice.js';

/** The body of a 200 from POST /v1/invoice/validate; also what the PDF prints. */

/**
 * Most fraction digits Intl.NumberFormat accepts here (V8 in Node 20 allows 0..20; ES2023 allows
 * 100). A valid unit price such as 5e-324 has hundreds of decimals: its display text is rounded to
 * this many (the exact value stays in `decimal`) instead of failing the whole request with a 500.
 */
const MAX_DISPLAY_FRACTION_DIGITS = 20;

export const MoneySchema = v.pipe(
  v.object({
    minor: v.pipe(v.number(), v.integer(), v.description('Integer minor units (cents; yen for JPY).')),
    decimal: v.pipe(v.string(), v.description('Exact decimal text in major units, with the currency digits, e.g. "1234.50".')),
    formatted: v.pipe(v.string(), v.description('Display text in the currency locale, e.g. "$1,234.50".')),
  }),
  v.description('An amount.'),
);

const UnitPriceSchema = v.object({
  decimal: v.pipe(v.string(), v.description('Exact unit price as sent, e.g. "0.125".')),
  formatted: v.pipe(v.string(), v.description('Display text with at least the currency digits, more when the price needs them.')),
});

export const TotalsReportSchema = v.object({
  valid: v.literal(true),
  invoice_number: v.string(),
  issue_date: v.string(),
  due_date: v.nullable(v.string()),
  currency: v.object({
    code: v.picklist(CURRENCY_CODES),
    digits: v.pipe(v.number(), v.integer(), v.description('Minor-unit digits (ISO 4217): 2, or 0 for JPY.')),
    locale: v.string(),
  }),
  lines: v.array(
    v.object({
      description: v.string(),
      quantity: v.pipe(v.string(), v.description('Exact quantity as sent, e.g. "1.5".')),
      unit_price: UnitPriceSchema,
      amount: MoneySchema,
    }),
  ),
  subtotal: MoneySchema,
  discount: MoneySchema,
  taxable: MoneySchema,
  tax_rate: v.pipe(v.string(), v.description('Tax rate in percent as sent, e.g. "7.5"; "0" when none.')),
  tax: MoneySchema,
  total: MoneySchema,
});

export type TotalsReport = v.InferOutput<typeof TotalsReportSchema>;

export function buildTotalsReport({ invoice, totals }: PreparedInvoice): TotalsReport {
  const { currency } = totals;
  const money = (minor: bigint) => toMoney(minor, currency);
  return {
    valid: true,
    invoice_number: invoice.invoice_number,
    issue_date: invoice.issue_date,
    due_date: invoice.due_date ?? null,
    currency: { code: currency, digits: totals.digits, locale: CURRENCIES[currency].locale },
    lines: invoice.line_items.map((line, index) => {
      const price = decimalFromNumber(line.unit_price);
      const priceText = decimalToString(price);
      return {
        description: line.description,
        quantity: decimalToString(decimalFromNumber(line.quantity)),
        unit_price: {
          decimal: priceText,
          formatted: formatDecimal(priceText, currency, Math.min(MAX_DISPLAY_FRACTION_DIGITS, Math.max(totals.digits, significantScale(price)))),
        },
        amount: money(totals.lineAmounts[index] ?? 0n),
      };
    }),
    subtotal: money(totals.subtotal),
    discount: money(totals.discount),
    taxable: money(totals.taxable),
    tax_rate: decimalToString(decimalFromNumber(invoice.tax_rate ?? 0)),
    tax: money(totals.tax),
    total: money(totals.total),
  };
}
