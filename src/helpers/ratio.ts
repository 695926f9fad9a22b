import { decimalFromNumber } from '../invoice/decimal.js';
import { minorToDecimal } from '../invoice/money.js';
import { divideRounded } from '../invoice/rounding.js';

/**
 * An exact rational number for rates that are not finite decimals (an annual 10% is 0.8333…% a
 * month). Kept as a fraction so money is rounded once, at the end, never through a float.
 */
export interface Ratio {
  numerator: bigint;
  denominator: bigint;
}

export function ratioFromNumber(value: number): Ratio {
  const { coefficient, scale } = decimalFromNumber(value);
  return { numerator: coefficient, denominator: 10n ** BigInt(scale) };
}

export function divideRatio(ratio: Ratio, by: bigint): Ratio {
  return { numerator: ratio.numerator, denominator: ratio.denominator * by };
}

export function multiplyRatio(ratio: Ratio, by: bigint): Ratio {
  return { numerator: ratio.numerator * by, denominator: ratio.denominator };
}

/** The ratio as a JSON number rounded half away from zero to `decimals` places (display only). */
export function ratioToNumber(ratio: Ratio, decimals: number): number {
  return Number(minorToDecimal(divideRounded(ratio.numerator * 10n ** BigInt(decimals), ratio.denominator), decimals));
}
