import { decimalToString, type Decimal } from './decimal.js';
import { divideRounded } from './rounding.js';
import type { VatCategory } from './vatCategories.js';

/**
 * VAT per rate (docs/invoice.md, Totals), steps 1–3: lines grouped by (category, rate) in order
 * of first appearance; the invoice discount allocated to the groups in proportion to their net by
 * largest remainder (ties to the earlier group); the tax rounded once per group.
 */
export interface VatGroup {
  category: VatCategory;
  rate: Decimal;
  net: bigint;
  /** This group's share of the invoice discount. */
  discount: bigint;
  taxable: bigint;
  tax: bigint;
}

export interface GroupedLine {
  amount: bigint;
  category: VatCategory;
  rate: Decimal;
}

/** Groups the lines by (category, rate), in order of first appearance, summing their nets. */
export function groupLines(lines: readonly GroupedLine[]): Pick<VatGroup, 'category' | 'rate' | 'net'>[] {
  const index = new Map<string, number>();
  const groups: Pick<VatGroup, 'category' | 'rate' | 'net'>[] = [];
  for (const line of lines) {
    const key = `${line.category} ${decimalToString(line.rate)}`;
    let at = index.get(key);
    if (at === undefined) {
      at = groups.push({ category: line.category, rate: line.rate, net: 0n }) - 1;
      index.set(key, at);
    }
    (groups[at] as { net: bigint }).net += line.amount;
  }
  return groups;
}

/** Splits `total` over `weights` in proportion, by largest remainder; the shares sum to `total`. */
export function allocateByLargestRemainder(total: bigint, weights: readonly bigint[]): bigint[] {
  const sum = weights.reduce((acc, weight) => acc + weight, 0n);
  if (sum === 0n) return weights.map(() => 0n);
  const shares = weights.map((weight) => (total * weight) / sum);
  let left = total - shares.reduce((acc, share) => acc + share, 0n);
  // Stable sort: equal remainders keep their order, so a tie goes to the earlier group.
  const order = weights
    .map((weight, at) => ({ at, remainder: (total * weight) % sum }))
    .sort((a, b) => (a.remainder === b.remainder ? 0 : a.remainder > b.remainder ? -1 : 1));
  for (const { at } of order) {
    if (left === 0n) break;
    shares[at] = (shares[at] ?? 0n) + 1n;
    left -= 1n;
  }
  return shares;
}

export function taxGroups(
  groups: readonly Pick<VatGroup, 'category' | 'rate' | 'net'>[],
  discount: bigint,
): VatGroup[] {
  const shares = allocateByLargestRemainder(
    discount,
    groups.map((group) => group.net),
  );
  return groups.map((group, at) => {
    const share = shares[at] ?? 0n;
    const taxable = group.net - share;
    const tax = divideRounded(taxable * group.rate.coefficient, 100n * 10n ** BigInt(group.rate.scale));
    return { ...group, discount: share, taxable, tax };
  });
}
