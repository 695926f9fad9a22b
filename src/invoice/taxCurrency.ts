import { currencyDigits, type CurrencyCode } from './currencies.js';
import { decimalFromNumber } from './decimal.js';
import { minorToDecimal } from './money.js';
import { divideRounded } from './rounding.js';
import type { Totals } from './totals.js';

/**
 * An amount of the invoice converted to its tax accounting currency (BT-6): times the request's
 * exchange rate, rounded half away from zero once, to the tax currency's own decimals (0 for JPY).
 * The rate is an input; the service never fetches one. The PINT writer
 * (src/einvoice/formats/pint/taxCurrency.ts) and the PDF's totals block (src/render/viewModel.ts)
 * both state BT-111 with it, so the two cannot disagree.
 */
export function inTaxCurrency(
  minor: bigint,
  digits: number,
  taxCurrency: { code: CurrencyCode; exchange_rate: number },
): bigint {
  const rate = decimalFromNumber(taxCurrency.exchange_rate);
  const numerator = minor * rate.coefficient * 10n ** BigInt(currencyDigits(taxCurrency.code));
  return divideRounded(numerator, 10n ** BigInt(digits + rate.scale));
}

/** BT-111 as exact decimal text: the VAT total in the tax currency (validate answers it, the PINT writer writes it). */
export function taxInTaxCurrency(totals: Totals, taxCurrency: { code: CurrencyCode; exchange_rate: number }): string {
  return minorToDecimal(inTaxCurrency(totals.tax, totals.digits, taxCurrency), currencyDigits(taxCurrency.code));
}
