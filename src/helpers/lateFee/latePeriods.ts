import { validationFailed } from '../../errors.js';
import { addDays, addMonths } from '../calendar.js';

/**
 * The monthly periods a late invoice has been charged for. The fee clock starts the day after the
 * grace period ends (due_date + grace_days, the last day without a fee). Period k runs from
 * (start + k−1 months) + 1 day to start + k months, month ends clamped (Jan 31 → Feb 28 → Mar 31),
 * and a period that has begun counts in full ("per month or part of a month"): one day past the
 * grace period is one period, one month and one day is two.
 */
export interface LatePeriod {
  period: number;
  from: string;
  to: string;
}

/** 100 years of monthly periods: more is certainly a mistake and would make a huge answer. */
const MAX_PERIODS = 1200;

export function latePeriods(graceEnds: string, asOf: string): LatePeriod[] {
  const periods: LatePeriod[] = [];
  let to = graceEnds;
  while (to < asOf) {
    if (periods.length === MAX_PERIODS) {
      throw validationFailed([
        {
          path: 'as_of',
          code: 'too_many_periods',
          message: `is more than ${MAX_PERIODS} monthly periods (100 years) after the grace period ends`,
        },
      ]);
    }
    const from = addDays(to, 1);
    to = addMonths(graceEnds, periods.length + 1);
    periods.push({ period: periods.length + 1, from, to });
  }
  return periods;
}
