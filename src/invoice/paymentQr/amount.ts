import { minorToDecimal } from '../money.js';

/**
 * Minor units (bigint) as the plain decimal every payload writes: "1949.75", "0.05", "12.00".
 * No grouping, a dot, exactly `digits` decimals; never a float on the way.
 */
export function decimalAmount(minor: bigint, digits: number): string {
  if (minor < 0n) throw new Error('decimalAmount: negative amount');
  return minorToDecimal(minor, digits);
}

/** The Swiss QR-bill's printed form: a space between thousands, "1 949.75" (SIX style guide 3.5.3). */
export function groupedAmount(minor: bigint, digits: number): string {
  const [whole, fraction] = decimalAmount(minor, digits).split('.') as [string, string | undefined];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
