import { rejected } from '../errors.js';
import { currencyDigits, type CurrencyCode } from '../invoice/currencies.js';
import { decimalFromNumber } from '../invoice/decimal.js';
import { MAX_MINOR, toMoney, type Money } from '../invoice/money.js';
import { scaleRounded } from '../invoice/rounding.js';

/**
 * A request amount in exact minor units: round(amount × 10^digits), the same single rounding the
 * invoice applies to its discount (12.345 USD → 1235 cents; 0.5 JPY → 1 yen).
 */
export function minorFromAmount(amount: number, currency: CurrencyCode): bigint {
  const { coefficient, scale } = decimalFromNumber(amount);
  return scaleRounded(coefficient, scale, currencyDigits(currency));
}

/**
 * A computed amount as Money, or a 400 amount_out_of_range when it would not fit a JSON integer
 * exactly (2^53 − 1 minor units), like an invoice total. `path` names the answer field.
 */
export function moneyInRange(minor: bigint, currency: CurrencyCode, path: string): Money {
  if (minor > MAX_MINOR || minor < -MAX_MINOR) {
    throw rejected(
      'amount_out_of_range',
      `An amount exceeds ${MAX_MINOR} minor units (2^53 − 1), the largest the service can answer exactly.`,
      [
        {
          path,
          code: 'amount_out_of_range',
          message: `computes to ${minor} minor units, more than the maximum of ${MAX_MINOR}`,
        },
      ],
    );
  }
  return toMoney(minor, currency);
}
