import { minorToDecimal } from './money.js';

/**
 * Exact decimals read from JSON numbers. A JSON number is taken as the decimal its shortest
 * round-trip string denotes (0.1 is exactly one tenth), so no binary float error reaches the
 * totals. value = coefficient / 10^scale, scale >= 0.
 */
export interface Decimal {
  readonly coefficient: bigint;
  readonly scale: number;
}

const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

export function decimalFromNumber(value: number): Decimal {
  // Fast paths (an invoice reads hundreds of these): a safe integer is its own coefficient, and
  // plain text with a dot (no exponent) is its digits without the dot; the regular expression
  // below gives the same answer for both, several times slower.
  if (Number.isSafeInteger(value)) return { coefficient: BigInt(value), scale: 0 };
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const text = String(value);
  const dot = text.indexOf('.');
  if (dot > 0 && !text.includes('e'))
    return { coefficient: BigInt(text.slice(0, dot) + text.slice(dot + 1)), scale: text.length - dot - 1 };
  const match = NUMBER_TEXT.exec(text);
  if (!match) throw new RangeError(`unexpected number text: ${text}`);
  const [, sign, whole = '0', fraction = '', exponent = '0'] = match;
  let coefficient = BigInt(whole + fraction) * (sign === '-' ? -1n : 1n);
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    coefficient *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { coefficient, scale };
}

/** Plain decimal text without exponent, trailing zeros trimmed: 0.125, 1000000, -2.5. */
export function decimalToString({ coefficient, scale }: Decimal): string {
  // A minor amount is a Decimal at the currency's scale: one writer of exact text for both.
  const text = minorToDecimal(coefficient, scale);
  return scale > 0 ? text.replace(/\.?0+$/, '') : text;
}

/** Number of fraction digits the value really needs (0.50 → 1, 3 → 0). */
export function significantScale({ coefficient, scale }: Decimal): number {
  // Trailing zeros of the coefficient are the fraction digits decimalToString would trim.
  while (scale > 0 && coefficient % 10n === 0n) {
    coefficient /= 10n;
    scale -= 1;
  }
  return scale;
}
