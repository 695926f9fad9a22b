import { currencyDigits, type CurrencyCode } from './currencies.js';
import { decimalFromNumber, type Decimal } from './decimal.js';
import { scaleRounded } from './rounding.js';
import { defaultCategory, type VatCategory } from './vatCategories.js';
import { groupLines, taxGroups, type VatGroup } from './vatGroups.js';

/**
 * The invoice formula of docs/invoice.md (Totals), in bigint minor units:
 *   line.amount = round(quantity × unit_price × 10^digits)
 *   subtotal    = Σ line.amount
 *   discount    = round(discount × 10^digits), shared among the VAT groups (vatGroups.ts)
 *   group.tax   = round((group.net − group.discount) × group.rate / 100)
 *   tax         = Σ group.tax
 *   total       = subtotal − discount + tax
 *   balance_due = total − round(amount_paid × 10^digits)
 * round() is half away from zero. With a single rate this is exactly the minimal invoice's formula
 * (taxable = subtotal − discount, tax = round(taxable × tax_rate / 100)).
 */
export interface TotalsInput {
  currency: CurrencyCode;
  line_items: readonly {
    quantity: number;
    unit_price: number;
    tax_rate?: number | undefined;
    tax_category?: VatCategory | undefined;
  }[];
  tax_rate?: number | undefined;
  discount?: number | undefined;
  amount_paid?: number | undefined;
  rounding_amount?: number | undefined;
}

export interface Totals {
  currency: CurrencyCode;
  digits: number;
  lineAmounts: bigint[];
  /** Each line's effective VAT category and rate. */
  lineTax: { category: VatCategory; rate: Decimal }[];
  groups: VatGroup[];
  subtotal: bigint;
  discount: bigint;
  taxable: bigint;
  tax: bigint;
  total: bigint;
  amountPaid: bigint;
  /** BT-114, rounding_amount in minor units (0 when not given). */
  rounding: bigint;
  balanceDue: bigint;
}

function lineAmount(quantity: number, unitPrice: number, digits: number): bigint {
  const q = decimalFromNumber(quantity);
  const p = decimalFromNumber(unitPrice);
  return scaleRounded(q.coefficient * p.coefficient, q.scale + p.scale, digits);
}

function toMinor(value: number | undefined, digits: number): bigint {
  const decimal = decimalFromNumber(value ?? 0);
  return scaleRounded(decimal.coefficient, decimal.scale, digits);
}

export function computeTotals(input: TotalsInput): Totals {
  const digits = currencyDigits(input.currency);
  const lines = input.line_items.map((line) => {
    const rate = decimalFromNumber(line.tax_rate ?? input.tax_rate ?? 0);
    return {
      amount: lineAmount(line.quantity, line.unit_price, digits),
      category: line.tax_category ?? defaultCategory(rate.coefficient > 0n),
      rate,
    };
  });
  const grouped = groupLines(lines);
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0n);
  const discount = toMinor(input.discount, digits);
  const groups = taxGroups(grouped, discount);
  const tax = groups.reduce((sum, group) => sum + group.tax, 0n);
  const taxable = subtotal - discount;
  const total = taxable + tax;
  const amountPaid = toMinor(input.amount_paid, digits);
  const rounding = toMinor(input.rounding_amount, digits);
  return {
    currency: input.currency,
    digits,
    lineAmounts: lines.map((line) => line.amount),
    lineTax: lines.map((line) => ({ category: line.category, rate: line.rate })),
    groups,
    subtotal,
    discount,
    taxable,
    tax,
    total,
    amountPaid,
    rounding,
    balanceDue: total - amountPaid + rounding,
  };
}
