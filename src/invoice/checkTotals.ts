import { rejected, type AppError } from '../errors.js';
import { MAX_MINOR } from './money.js';
import type { Totals } from './totals.js';

/**
 * Business rules that need the computed totals: a discount may not exceed the subtotal, an amount
 * paid may not exceed the total, and every amount must fit a JSON integer exactly (2^53 − 1 minor
 * units). Returns the error, or undefined.
 */
export function checkTotals(totals: Totals): AppError | undefined {
  if (totals.discount > totals.subtotal) {
    return rejected('discount_exceeds_subtotal', 'The discount is larger than the subtotal of the line items.', [
      {
        path: 'discount',
        code: 'discount_exceeds_subtotal',
        message: 'must not be larger than the subtotal of the line items',
      },
    ]);
  }
  const tooLarge = [
    ...totals.lineAmounts.map((value, index) => ({ path: `line_items[${index}]`, value })),
    { path: 'subtotal', value: totals.subtotal },
    { path: 'total', value: totals.total },
  ].filter(({ value }) => value > MAX_MINOR);
  if (tooLarge.length > 0) {
    return rejected(
      'amount_out_of_range',
      `An amount exceeds ${MAX_MINOR} minor units (2^53 − 1), the largest the service can answer exactly.`,
      tooLarge.map(({ path, value }) => ({
        path,
        code: 'amount_out_of_range',
        message: `computes to ${value} minor units, more than the maximum of ${MAX_MINOR}`,
      })),
    );
  }
  if (totals.amountPaid > totals.total) {
    return rejected('amount_paid_exceeds_total', 'The amount paid is larger than the invoice total.', [
      {
        path: 'amount_paid',
        code: 'amount_paid_exceeds_total',
        message: `must not be larger than the total (${totals.total} minor units)`,
      },
    ]);
  }
  if (totals.balanceDue < 0n) {
    return rejected('rounding_makes_due_negative', 'The rounding amount makes the amount due negative.', [
      {
        path: 'rounding_amount',
        code: 'rounding_makes_due_negative',
        message: `must not make the amount due negative (total less amount_paid is ${totals.balanceDue - totals.rounding} minor units)`,
      },
    ]);
  }
  return undefined;
}
