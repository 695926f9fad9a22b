import { validationFailed } from '../../errors.js';
import type { CurrencyCode } from '../../invoice/currencies.js';
import { addDays, daysBetween } from '../calendar.js';
import { minorFromAmount, moneyInRange } from '../minorUnits.js';
import { ratioToNumber } from '../ratio.js';
import { feeFieldIssues, feeRateOf } from './feeRate.js';
import { percentSchedule, type ScheduleRow } from './feeSchedule.js';
import { latePeriods } from './latePeriods.js';
import type { LateFeeRequest, LateFeeResult } from './schema.js';
import { STATE_TABLE, stateRulesOf } from './stateRules.js';
import { stateWarnings } from './stateWarnings.js';

// Rates are shown with 6 decimals (an annual 10% is 0.833333% a month); the maths uses exact fractions.
const RATE_DECIMALS = 6;

/** The late fee of `input` on its as_of, or on `today` (UTC, YYYY-MM-DD) when as_of is left out. */
export function computeLateFee(input: LateFeeRequest, today: string): LateFeeResult {
  const state = input.state === undefined ? undefined : stateRulesOf(input.state);
  const issues = feeFieldIssues(input, state);
  if (issues.length > 0) throw validationFailed(issues);

  const { currency } = input;
  const asOf = input.as_of ?? today;
  const graceEnds = addDays(input.due_date, input.grace_days);
  const amount = minorFromAmount(input.amount, currency);
  const rate = input.fee_type === 'flat' ? null : feeRateOf(input, state);
  const rows = rate
    ? percentSchedule(amount, rate.monthly, latePeriods(graceEnds, asOf), input.compounding)
    : flatRows(amount, input, graceEnds, asOf, currency);
  const fee = rows.reduce((sum, row) => sum + row.fee, 0n);

  return {
    amount: moneyInRange(amount, currency, 'amount'),
    currency,
    due_date: input.due_date,
    as_of: asOf,
    grace_days: input.grace_days,
    grace_ends: graceEnds,
    days_late: Math.max(0, daysBetween(input.due_date, asOf)),
    fee_type: input.fee_type,
    rate_percent: rate ? ratioToNumber(rate.perFeeType, RATE_DECIMALS) : null,
    annual_rate_percent: rate ? ratioToNumber(rate.annual, RATE_DECIMALS) : null,
    rate_source: rate ? rate.source : null,
    compounding: input.compounding,
    periods: rows.length,
    fee: moneyInRange(fee, currency, 'fee'),
    balance: moneyInRange(amount + fee, currency, 'balance'),
    schedule: rows.map((row, index) => ({
      period: row.period,
      from: row.from,
      to: row.to,
      rate_percent: rate ? ratioToNumber(rate.monthly, RATE_DECIMALS) : null,
      fee: moneyInRange(row.fee, currency, `schedule[${index}].fee`),
      balance: moneyInRange(row.balance, currency, `schedule[${index}].balance`),
    })),
    state_rules: state ? { ...state, data_as_of: STATE_TABLE.as_of } : null,
    warnings: state ? stateWarnings(state, rate) : [],
    disclaimer: state ? STATE_TABLE.disclaimer : null,
  };
}

/** A flat fee is charged once, as soon as the grace period is over; its one row runs to as_of. */
function flatRows(
  amount: bigint,
  input: LateFeeRequest,
  graceEnds: string,
  asOf: string,
  currency: CurrencyCode,
): ScheduleRow[] {
  if (asOf <= graceEnds) return [];
  const fee = minorFromAmount(input.flat_amount ?? 0, currency);
  return [{ period: 1, from: addDays(graceEnds, 1), to: asOf, fee, balance: amount + fee }];
}
