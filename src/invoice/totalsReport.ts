import * as v from 'valibot';
import { CURRENCY_CODES } from './currencies.js';
import { decimalFromNumber, decimalToString, significantScale } from './decimal.js';
import { LANGUAGES } from './locales.js';
import { formatCurrency, toMoney } from './money.js';
import type { PreparedInvoice } from './prepareInvoice.js';
import { VAT_CATEGORIES } from './vatCategories.js';

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
    decimal: v.pipe(
      v.string(),
      v.description('Exact decimal text in major units, with the currency digits, e.g. "1234.50".'),
    ),
    formatted: v.pipe(
      v.string(),
      v.description('Display text in the invoice\'s locale (the currency\'s locale by default), e.g. "$1,234.50".'),
    ),
  }),
  v.description('An amount.'),
);

const UnitPriceSchema = v.object({
  decimal: v.pipe(v.string(), v.description('Exact unit price as sent, e.g. "0.125".')),
  formatted: v.pipe(
    v.string(),
    v.description('Display text with at least the currency digits, more when the price needs them.'),
  ),
});

const RateSchema = v.pipe(
  v.string(),
  v.description('A rate in percent as exact decimal text, e.g. "7.5"; "0" when none.'),
);

export const TotalsReportSchema = v.object({
  valid: v.literal(true),
  document_type: v.picklist(['invoice', 'credit_note']),
  invoice_number: v.string(),
  issue_date: v.string(),
  due_date: v.nullable(v.string()),
  currency: v.object({
    code: v.picklist(CURRENCY_CODES),
    digits: v.pipe(v.number(), v.integer(), v.description('Minor-unit digits (ISO 4217): 2, or 0 for JPY.')),
    locale: v.pipe(
      v.string(),
      v.description('The locale amounts are formatted in: the invoice locale, else the currency locale.'),
    ),
  }),
  locale: v.object({
    tag: v.string(),
    language: v.picklist(LANGUAGES),
    direction: v.picklist(['ltr', 'rtl']),
  }),
  lines: v.array(
    v.object({
      description: v.string(),
      quantity: v.pipe(v.string(), v.description('Exact quantity as sent, e.g. "1.5".')),
      unit_price: UnitPriceSchema,
      amount: MoneySchema,
      tax_category: v.picklist(VAT_CATEGORIES),
      tax_rate: RateSchema,
    }),
  ),
  subtotal: MoneySchema,
  discount: MoneySchema,
  taxable: MoneySchema,
  tax_rate: v.pipe(
    v.string(),
    v.description(
      'The invoice\'s tax_rate in percent as sent, e.g. "7.5"; "0" when none (lines may carry their own: see tax_groups).',
    ),
  ),
  tax: MoneySchema,
  total: v.pipe(MoneySchema, v.description('taxable + tax (+ the surcharges, when there are any).')),
  tax_groups: v.pipe(
    v.array(
      v.object({
        category: v.picklist(VAT_CATEGORIES),
        rate: RateSchema,
        net: MoneySchema,
        discount: v.pipe(MoneySchema, v.description("This group's share of the discount (largest remainder).")),
        taxable: MoneySchema,
        tax: MoneySchema,
      }),
    ),
    v.description('The VAT breakdown: lines grouped by (category, rate) in order of first appearance.'),
  ),
  surcharges: v.optional(
    v.pipe(
      v.array(v.object({ rate: RateSchema, taxable: MoneySchema, amount: MoneySchema })),
      v.description(
        "Surcharges on top of VAT that a format's object adds (Spain: verifactu.vat_groups[].surcharge_rate, the equivalence surcharge), each on its VAT group's taxable amount; counted in total and balance_due. Present only when there is one.",
      ),
    ),
  ),
  amount_paid: MoneySchema,
  rounding: v.optional(
    v.pipe(MoneySchema, v.description('rounding_amount (BT-114), present when the request gives it.')),
  ),
  balance_due: v.pipe(MoneySchema, v.description('total − amount_paid + rounding.')),
  payment_qr: v.pipe(
    v.nullable(
      v.object({
        scheme: v.picklist(['epc', 'swiss', 'pix', 'upi', 'eip681']),
        payload: v.pipe(v.string(), v.description('Exactly the text the printed QR code encodes.')),
      }),
    ),
    v.description(
      'The payment QR code the PDF prints (payment.qr auto): EPC (EUR + IBAN), Swiss QR-bill, PIX, UPI or an EIP-681 USDC link; null when none.',
    ),
  ),
});

export type TotalsReport = v.InferOutput<typeof TotalsReportSchema>;

export function buildTotalsReport({ invoice, totals, locale, paymentQr, surcharges }: PreparedInvoice): TotalsReport {
  const { currency } = totals;
  // The locale named, or the currency's (invoiceLocale chose it): amounts read as customers expect.
  const formatLocale = locale.tag;
  const money = (minor: bigint) => toMoney(minor, currency, formatLocale);
  return {
    valid: true,
    document_type: invoice.document_type ?? 'invoice',
    invoice_number: invoice.invoice_number,
    issue_date: invoice.issue_date,
    due_date: invoice.due_date ?? null,
    currency: { code: currency, digits: totals.digits, locale: formatLocale },
    locale: { tag: locale.tag, language: locale.language, direction: locale.direction },
    lines: invoice.line_items.map((line, index) => {
      const price = decimalFromNumber(line.unit_price);
      const priceText = decimalToString(price);
      const lineTax = totals.lineTax[index];
      return {
        description: line.description,
        quantity: decimalToString(decimalFromNumber(line.quantity)),
        unit_price: {
          decimal: priceText,
          formatted: formatCurrency(
            priceText,
            currency,
            Math.min(MAX_DISPLAY_FRACTION_DIGITS, Math.max(totals.digits, significantScale(price))),
            formatLocale,
          ),
        },
        amount: money(totals.lineAmounts[index] ?? 0n),
        tax_category: lineTax?.category ?? 'Z',
        tax_rate: lineTax ? decimalToString(lineTax.rate) : '0',
      };
    }),
    subtotal: money(totals.subtotal),
    discount: money(totals.discount),
    taxable: money(totals.taxable),
    tax_rate: decimalToString(decimalFromNumber(invoice.tax_rate ?? 0)),
    tax: money(totals.tax),
    total: money(totals.total),
    tax_groups: totals.groups.map((group) => ({
      category: group.category,
      rate: decimalToString(group.rate),
      net: money(group.net),
      discount: money(group.discount),
      taxable: money(group.taxable),
      tax: money(group.tax),
    })),
    ...(surcharges?.length
      ? {
          surcharges: surcharges.map((surcharge) => ({
            rate: decimalToString(surcharge.rate),
            taxable: money(surcharge.taxable),
            amount: money(surcharge.amount),
          })),
        }
      : {}),
    amount_paid: money(totals.amountPaid),
    ...(invoice.rounding_amount !== undefined ? { rounding: money(totals.rounding) } : {}),
    balance_due: money(totals.balanceDue),
    payment_qr: paymentQr ? { scheme: paymentQr.scheme, payload: paymentQr.payload } : null,
  };
}
