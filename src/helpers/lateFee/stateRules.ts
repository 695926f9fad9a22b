import * as v from 'valibot';
import table from '../../../data/us-late-payment-interest.json' with { type: 'json' };

/**
 * US state rules on interest for overdue B2B invoices (data/us-late-payment-interest.json, 50
 * states + DC, each entry with its citation and source). The file is checked against this schema
 * when the module loads, so a bad edit fails at start-up rather than in an answer. Figures the
 * research could not confirm are null and stay null: the service never fills them in.
 */
const nullableRate = (description: string) => v.pipe(v.nullable(v.number()), v.description(description));

export const StateRulesSchema = v.object({
  code: v.pipe(v.string(), v.regex(/^[A-Z]{2}$/)),
  name: v.string(),
  legal_rate_annual_percent: nullableRate(
    'Annual rate that applies when the contract is silent; null when variable or not confirmed.',
  ),
  max_contract_rate_annual_percent: nullableRate(
    'General written-contract ceiling as read (the floor of a "greater of X or index + Y" ceiling); null when none is recorded.',
  ),
  no_general_cap: v.pipe(
    v.nullable(v.boolean()),
    v.description('True where business credit may carry any rate; null when not established.'),
  ),
  conditions: v.string(),
  citation: v.string(),
  source_url: v.string(),
  source_kind: v.picklist(['primary', 'secondary']),
  note: v.string(),
});

export type StateRules = v.InferOutput<typeof StateRulesSchema>;

const StateTableSchema = v.object({
  title: v.string(),
  description: v.string(),
  as_of: v.string(),
  disclaimer: v.string(),
  jurisdictions: v.array(StateRulesSchema),
});

export const STATE_TABLE = v.parse(StateTableSchema, table);

export const STATE_CODES = STATE_TABLE.jurisdictions.map((rules) => rules.code) as [string, ...string[]];

export function stateRulesOf(code: string): StateRules | undefined {
  return STATE_TABLE.jurisdictions.find((rules) => rules.code === code);
}
