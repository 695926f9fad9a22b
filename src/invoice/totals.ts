import { currencyDigits, type CurrencyCode } from './currencies.js';
import { decimalFromNumber } from './decimal.js';
import { divideRounded, scaleRounded } from './rounding.js';

/**
 * The invoice formula of DECISIONS.md, in bigint minor units:
 *   line.amount = round(quantity × unit_price × 10^digits)
 *   subtotal    = Σ line.amount
 *   discount    = round(discount × 10^digits)
 *   taxable     = subtotal − discount
 *   tax         = round(taxable × tax_rate / 100)
 *   total       = taxable + tax
 * round() is half away from zero, applied once per line, once to the discount, once to the tax.
 */
export interface TotalsInput {
  currency: CurrencyCode;
  line_items: readonly { quantity: number; unit_price: number }[];
  tax_rate?: number | undefined;
  discount?: number | undefined;
}

export interface Totals {
  currency: CurrencyCode;
  digits: number;
  lineAmounts: bigint[];
  subtotal: bigint;
  discount: bigint;
  taxable: bigint;
  tax: bigint;
  total: bigint;
}

export function lineAmount(quantity: number, unitPrice: number, digits: number): bigint {
  const q = decimalFromNumber(quantity);
  const p = decimalFromNumber(unitPrice);
  return scaleRounded(q.coefficient * p.coefficient, q.scale + p.scale, digits);
}

export function computeTotals(input: TotalsInput): Totals {
  const digits = currencyDigits(input.currency);
  const lineAmounts = input.line_items.map((line) => lineAmount(line.quantity, line.unit_price, digits));
  const subtotal = lineAmounts.reduce((sum, value) => sum + value, 0n);
  const discountDecimal = decimalFromNumber(input.discount ?? 0);
  const discount = scaleRounded(discountDecimal.coefficient, discountDecimal.scale, digits);
  const taxable = subtotal - discount;
  const rate = decimalFromNumber(input.tax_rate ?? 0);
  const tax = divideRounded(taxable * rate.coefficient, 100n * 10n ** BigInt(rate.scale));
  return { currency: input.currency, digits, lineAmounts, subtotal, discount, taxable, tax, total: taxable + tax };
}
