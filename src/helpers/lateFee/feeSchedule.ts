import { divideRounded } from '../../invoice/rounding.js';
import type { Ratio } from '../ratio.js';
import type { LatePeriod } from './latePeriods.js';

/**
 * Percentage fees, one rounding per period (half away from zero, to the currency's minor unit):
 *   simple:      fee_k = round(amount × r)                 (the same every period)
 *   compounding: fee_k = round(balance_{k−1} × r)          (fees earn fees, monthly)
 *   balance_k = balance_{k−1} + fee_k, balance_0 = amount
 * r is the monthly rate as an exact fraction (an annual rate is divided by 12, no float).
 */
export interface ScheduleRow extends LatePeriod {
  fee: bigint;
  balance: bigint;
}

export function percentSchedule(
  amount: bigint,
  monthlyPercent: Ratio,
  periods: readonly LatePeriod[],
  compounding: boolean,
): ScheduleRow[] {
  const rows: ScheduleRow[] = [];
  let balance = amount;
  for (const period of periods) {
    const base = compounding ? balance : amount;
    const fee = divideRounded(base * monthlyPercent.numerator, 100n * monthlyPercent.denominator);
    balance += fee;
    rows.push({ ...period, fee, balance });
  }
  return rows;
}
