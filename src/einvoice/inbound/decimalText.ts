import { minorToDecimal } from '../../invoice/money.js';

/**
 * Exact arithmetic on the decimal text of a received document's amounts: values are bigints in
 * millionths (units of 10^-SCALE, "micros"), so sums and comparisons never meet binary floating
 * point. A fixed scale rather than invoice/decimal.ts's Decimal because a document's values are
 * summed, multiplied and compared in bulk at one precision; digits past the sixth are cut when
 * read (parseDecimal). docs/development.md lists the service's exact number forms.
 */
const SCALE = 6;
const ONE = 10n ** BigInt(SCALE);

export function parseDecimal(text: string | undefined): bigint | undefined {
  if (text === undefined) return undefined;
  const match = /^\s*([+-]?)(\d*)(?:\.(\d*))?\s*$/.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return undefined;
  const fraction = (match[3] ?? '').slice(0, SCALE).padEnd(SCALE, '0');
  const value = BigInt(match[2] || '0') * ONE + BigInt(fraction);
  return match[1] === '-' ? -value : value;
}

/** Rounded half away from zero to `digits` decimals, still in 10^-SCALE units. */
export function roundTo(value: bigint, digits: number): bigint {
  const step = 10n ** BigInt(SCALE - digits);
  const half = step / 2n;
  const magnitude = value < 0n ? -value : value;
  const rounded = ((magnitude + half) / step) * step;
  return value < 0n ? -rounded : rounded;
}

export function multiply(a: bigint, b: bigint): bigint {
  return (a * b) / ONE;
}

export function divide(a: bigint, b: bigint): bigint {
  return b === 0n ? 0n : (a * ONE) / b;
}

/** Micros as text rounded half away from zero to `digits` decimals (2 for amounts): 1234567n → "1.23". */
export function microsToText(value: bigint, digits = 2): string {
  return minorToDecimal(roundTo(value, digits) / 10n ** BigInt(SCALE - digits), digits);
}

export function toNumber(value: bigint): number {
  return Number(value) / Number(ONE);
}

export const HUNDRED = 100n * ONE;
