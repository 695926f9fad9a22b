/**
 * Exact arithmetic on the decimal text of a document's amounts: values are bigints in units of
 * 10^-SCALE, so sums and comparisons never meet binary floating point.
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

/** Text with `digits` decimals (2 for amounts). */
export function formatDecimal(value: bigint, digits = 2): string {
  const rounded = roundTo(value, digits);
  const negative = rounded < 0n;
  const magnitude = negative ? -rounded : rounded;
  const whole = magnitude / ONE;
  const fraction = (magnitude % ONE).toString().padStart(SCALE, '0').slice(0, digits);
  return `${negative ? '-' : ''}${whole}${digits > 0 ? `.${fraction}` : ''}`;
}

export function toNumber(value: bigint): number {
  return Number(value) / Number(ONE);
}

export const HUNDRED = 100n * ONE;
