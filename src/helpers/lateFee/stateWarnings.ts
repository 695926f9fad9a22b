import { ratioFromNumber, ratioToNumber, type Ratio } from '../ratio.js';
import type { FeeRate } from './feeRate.js';
import type { Warning } from './schema.js';
import type { StateRules } from './stateRules.js';

const isAbove = (a: Ratio, b: Ratio) => a.numerator * b.denominator > b.numerator * a.denominator;

/**
 * What the state table says about the requested fee, as warnings with a stable code (their schema
 * is part of the answer's, in schema.ts). Only the table's own figures are compared; where a figure
 * is null the warning says it is unknown rather than guessing. The comparison uses the nominal
 * annual rate (monthly rate × 12).
 */
export function stateWarnings(state: StateRules, rate: FeeRate | null): Warning[] {
  const where = state.name;
  if (!rate) {
    return [
      {
        code: 'flat_fee_not_compared',
        message: `The state table gives ${where}'s figures as annual interest rates; a flat fee was not compared with them. See conditions and citation.`,
      },
    ];
  }
  const warnings: Warning[] = [];
  const annual = ratioToNumber(rate.annual, 6);
  const legal = state.legal_rate_annual_percent;
  if (rate.source === 'request' && legal !== null && isAbove(rate.annual, ratioFromNumber(legal))) {
    warnings.push({
      code: 'rate_above_legal_rate',
      message: `The annual rate of ${annual}% is above ${where}'s legal rate of ${legal}% a year, which applies when the contract does not state a rate; a higher rate needs to be agreed in the contract.`,
    });
  }
  const cap = state.max_contract_rate_annual_percent;
  if (cap !== null && isAbove(rate.annual, ratioFromNumber(cap))) {
    warnings.push({
      code: 'rate_above_contract_cap',
      message: `The annual rate of ${annual}% is above ${where}'s general written-contract cap of ${cap}% a year as recorded in the state table; exceptions may apply (see conditions and citation).`,
    });
  }
  if (cap === null && state.no_general_cap !== true) {
    warnings.push({
      code: 'contract_cap_unknown',
      message: `The state table records no general written-contract cap for ${where}, so the rate was not checked against one; see conditions and citation.`,
    });
  }
  return warnings;
}
