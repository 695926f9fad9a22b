import type { Issue } from '../../errors.js';
import { divideRatio, multiplyRatio, ratioFromNumber, type Ratio } from '../ratio.js';
import type { LateFeeRequest } from './schema.js';
import type { StateRules } from './stateRules.js';

/**
 * The rate a percentage fee charges: the request's rate_percent, or else the state's legal rate
 * (the rate that applies when a contract is silent), converted to the fee type's unit. An annual
 * rate is charged as annual / 12 per monthly period (a nominal annual rate).
 */
export interface FeeRate {
  /** In the unit of fee_type: percent per month or per year. */
  perFeeType: Ratio;
  monthly: Ratio;
  /** Nominal annual rate, monthly × 12: what is compared with the state's figures. */
  annual: Ratio;
  source: 'request' | 'state_legal_rate';
}

/** Rules between fields that a schema cannot state, listed all at once. */
export function feeFieldIssues(input: LateFeeRequest, state: StateRules | undefined): Issue[] {
  const issues: Issue[] = [];
  if (input.fee_type === 'flat') {
    if (input.flat_amount === undefined)
      issues.push({ path: 'flat_amount', code: 'required', message: 'is required when fee_type is flat' });
    if (input.rate_percent !== undefined) {
      issues.push({
        path: 'rate_percent',
        code: 'not_allowed',
        message: 'does not apply to fee_type flat; give flat_amount instead',
      });
    }
    if (input.compounding)
      issues.push({
        path: 'compounding',
        code: 'not_allowed',
        message: 'applies only to percentage fees, not to fee_type flat',
      });
    return issues;
  }
  if (input.flat_amount !== undefined) {
    issues.push({
      path: 'flat_amount',
      code: 'not_allowed',
      message: `applies only to fee_type flat, not to ${input.fee_type}`,
    });
  }
  if (input.rate_percent === undefined) {
    if (!state) {
      issues.push({
        path: 'rate_percent',
        code: 'required',
        message: `is required for fee_type ${input.fee_type} unless a state is given whose legal rate is known`,
      });
    } else if (state.legal_rate_annual_percent === null) {
      issues.push({
        path: 'rate_percent',
        code: 'required',
        message: `is required: the legal rate of ${state.name} (${state.code}) is unknown in the state table (variable, index-based or not confirmed), so it cannot stand in for rate_percent`,
      });
    }
  }
  return issues;
}

/** Call after feeFieldIssues found nothing, for a percentage fee type. */
export function feeRateOf(input: LateFeeRequest, state: StateRules | undefined): FeeRate {
  const monthlyType = input.fee_type === 'monthly_percent';
  const legalRate = state?.legal_rate_annual_percent ?? null;
  const fromRequest = input.rate_percent !== undefined;
  let perFeeType: Ratio;
  if (input.rate_percent !== undefined) perFeeType = ratioFromNumber(input.rate_percent);
  else if (legalRate !== null)
    perFeeType = monthlyType ? divideRatio(ratioFromNumber(legalRate), 12n) : ratioFromNumber(legalRate);
  else throw new Error('feeRateOf called without a rate; check feeFieldIssues first');
  const monthly = monthlyType ? perFeeType : divideRatio(perFeeType, 12n);
  return {
    perFeeType,
    monthly,
    annual: multiplyRatio(monthly, 12n),
    source: fromRequest ? 'request' : 'state_legal_rate',
  };
}
