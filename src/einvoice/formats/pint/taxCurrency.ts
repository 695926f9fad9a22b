import { currencyDigits, type CurrencyCode } from '../../../invoice/currencies.js';
import { decimalFromNumber } from '../../../invoice/decimal.js';
import { minorToDecimal } from '../../../invoice/money.js';
import { divideRounded } from '../../../invoice/rounding.js';
import type { Totals } from '../../../invoice/totals.js';

/**
 * The VAT total in the tax accounting currency (BT-111): the invoice's VAT total times the
 * request's exchange rate, rounded half away from zero once, to the tax currency's own decimals
 * (0 for JPY). The rate is an input; the service never fetches one.
 */
export function taxMinorInTaxCurrency(
  totals: Totals,
  taxCurrency: { code: CurrencyCode; exchange_rate: number },
): bigint {
  const rate = decimalFromNumber(taxCurrency.exchange_rate);
  const targetDigits = currencyDigits(taxCurrency.code);
  const numerator = totals.tax * rate.coefficient * 10n ** BigInt(targetDigits);
  const denominator = 10n ** BigInt(totals.digits + rate.scale);
  return divideRounded(numerator, denominator);
}

export function taxInTaxCurrency(totals: Totals, taxCurrency: { code: CurrencyCode; exchange_rate: number }): string {
  return minorToDecimal(taxMinorInTaxCurrency(totals, taxCurrency), currencyDigits(taxCurrency.code));
}
