/**
 * The one rounding rule of the service: half away from zero (commercial rounding).
 * Every computed amount goes through here exactly once.
 */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('division by zero');
  if (denominator < 0n) return divideRounded(-numerator, -denominator);
  const quotient = numerator / denominator; // truncates toward zero
  const remainder = numerator % denominator;
  const absRemainder = remainder < 0n ? -remainder : remainder;
  if (absRemainder * 2n >= denominator) return quotient + (numerator < 0n ? -1n : 1n);
  return quotient;
}

/** round(value × 10^digits): a decimal scaled to integer units of 10^-digits. */
export function scaleRounded(coefficient: bigint, scale: number, digits: number): bigint {
  const shift = digits - scale;
  if (shift >= 0) return coefficient * 10n ** BigInt(shift);
  return divideRounded(coefficient, 10n ** BigInt(-shift));
}
