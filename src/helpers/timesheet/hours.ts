import { decimalFromNumber, decimalToString, type Decimal } from '../../invoice/decimal.js';
import { divideRounded } from '../../invoice/rounding.js';

/**
 * Hours as exact decimals. A rounding increment works on minutes: hours × 60 is exact (no float),
 * divided by the increment and rounded to a whole number of increments:
 *   up      → ceiling (any started increment is billed)
 *   down    → floor
 *   nearest → half away from zero, the service's one rounding rule (7.5 min on 15 → 15)
 * Increments are multiples of 3 minutes so that every rounded total is an exact decimal of hours
 * with at most 2 places (3 min = 0.05 h); 10 minutes would be 0.1666… h, which no invoice
 * quantity can hold exactly.
 */
export const ROUNDING_MODES = ['up', 'nearest', 'down'] as const;
export type RoundingMode = (typeof ROUNDING_MODES)[number];

export const ZERO_HOURS: Decimal = { coefficient: 0n, scale: 0 };

export function roundedMinutes(hours: number, incrementMinutes: number, mode: RoundingMode): bigint {
  const { coefficient, scale } = decimalFromNumber(hours);
  const numerator = coefficient * 60n; // minutes × 10^scale
  const denominator = 10n ** BigInt(scale) * BigInt(incrementMinutes);
  const floor = numerator / denominator; // hours are never negative, so truncation is the floor
  const increments =
    mode === 'down'
      ? floor
      : mode === 'up'
        ? floor + (numerator % denominator === 0n ? 0n : 1n)
        : divideRounded(numerator, denominator);
  return increments * BigInt(incrementMinutes);
}

/** Minutes that are a multiple of 3 as exact hours with 2 decimals: 75 → 1.25. */
export function hoursFromMinutes(minutes: bigint): Decimal {
  if (minutes % 3n !== 0n) throw new RangeError(`${minutes} minutes is not an exact decimal of hours`);
  return { coefficient: (minutes * 5n) / 3n, scale: 2 };
}

export function addHours(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  const align = (value: Decimal) => value.coefficient * 10n ** BigInt(scale - value.scale);
  return { coefficient: align(a) + align(b), scale };
}

/** As a JSON number; exact because hours carry at most 6 decimals and sums stay below 10^7. */
export function hoursToNumber(hours: Decimal): number {
  return Number(decimalToString(hours));
}

export function isPositive(hours: Decimal): boolean {
  return hours.coefficient > 0n;
}
