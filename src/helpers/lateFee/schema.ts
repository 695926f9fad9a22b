import * as v from 'valibot';
import { CURRENCY_CODES } from '../../invoice/currencies.js';
import { amount, wholeNumber } from '../../invoice/textRules.js';
import { asOfField, currencyField, DateSchema, helperDate, MoneySchema, moneyAmount } from '../fields.js';
import { STATE_CODES, StateRulesSchema } from './stateRules.js';

const FEE_TYPES = ['monthly_percent', 'annual_percent', 'flat'] as const;

export const LateFeeRequestSchema = v.strictObject(
  {
    amount: moneyAmount('The overdue amount.'),
    currency: currencyField,
    due_date: helperDate('Due date of the invoice, YYYY-MM-DD.'),
    as_of: asOfField,
    grace_days: v.optional(
      wholeNumber({ min: 0, max: 3650, description: 'Days after the due date without a fee, 0 to 3650. Default 0.' }),
      0,
    ),
    fee_type: v.optional(
      v.pipe(
        v.picklist(FEE_TYPES, `must be one of ${FEE_TYPES.join(', ')}`),
        v.description(
          'monthly_percent (default): rate_percent per month; annual_percent: rate_percent per year, charged as 1/12 a month; flat: flat_amount once.',
        ),
      ),
      'monthly_percent',
    ),
    rate_percent: v.optional(
      amount({
        min: 0,
        max: 100,
        description:
          "Rate in percent per month or per year (see fee_type), 0 to 100. When omitted with a state, the state's legal annual rate is used.",
      }),
    ),
    flat_amount: v.optional(moneyAmount('Flat late fee, charged once, for fee_type flat.')),
    compounding: v.optional(
      v.pipe(
        v.boolean('must be true or false'),
        v.description('false (default): simple interest on the amount; true: monthly compounding.'),
      ),
      false,
    ),
    state: v.optional(
      v.pipe(
        v.picklist(STATE_CODES, 'must be the two-letter upper-case code of a US state or DC, e.g. CA'),
        v.description('US state (or DC) whose rules on interest for overdue B2B invoices to report, e.g. CA.'),
      ),
    ),
  },
  'unknown property',
);

export type LateFeeRequest = v.InferOutput<typeof LateFeeRequestSchema>;

const ScheduleRowSchema = v.object({
  period: v.number(),
  from: DateSchema,
  to: v.pipe(
    v.string(),
    v.description('Last day of the period (YYYY-MM-DD); a period that has begun is charged in full.'),
  ),
  rate_percent: v.pipe(
    v.nullable(v.number()),
    v.description('Monthly rate applied in the period, 6 decimals; null for a flat fee.'),
  ),
  fee: MoneySchema,
  balance: v.pipe(MoneySchema, v.description('Amount plus the fees so far.')),
});

/** A warning from the state table about the requested fee, with a stable code (see stateWarnings.ts). */
const WarningSchema = v.object({
  code: v.picklist([
    'rate_above_legal_rate',
    'rate_above_contract_cap',
    'contract_cap_unknown',
    'flat_fee_not_compared',
  ]),
  message: v.string(),
});

export type Warning = v.InferOutput<typeof WarningSchema>;

export const LateFeeResultSchema = v.object({
  amount: MoneySchema,
  currency: v.picklist(CURRENCY_CODES),
  due_date: DateSchema,
  as_of: DateSchema,
  grace_days: v.number(),
  grace_ends: v.pipe(v.string(), v.description('Last day without a fee: due_date + grace_days.')),
  days_late: v.pipe(v.number(), v.description('Days from the due date to as_of; 0 when not yet due.')),
  fee_type: v.picklist(FEE_TYPES),
  rate_percent: v.pipe(
    v.nullable(v.number()),
    v.description('The rate charged in the unit of fee_type, 6 decimals; null for flat.'),
  ),
  annual_rate_percent: v.pipe(
    v.nullable(v.number()),
    v.description('Nominal annual rate (monthly × 12), 6 decimals; null for flat.'),
  ),
  rate_source: v.pipe(
    v.nullable(v.picklist(['request', 'state_legal_rate'])),
    v.description('Where the rate came from; null for flat.'),
  ),
  compounding: v.boolean(),
  periods: v.pipe(
    v.number(),
    v.description('Monthly periods charged (a begun period counts); 1 for a flat fee that applies.'),
  ),
  fee: MoneySchema,
  balance: v.pipe(MoneySchema, v.description('amount + fee.')),
  schedule: v.array(ScheduleRowSchema),
  state_rules: v.pipe(
    v.nullable(
      v.object({
        ...StateRulesSchema.entries,
        data_as_of: v.pipe(v.string(), v.description('When the state table was compiled.')),
      }),
    ),
    v.description('What the state table says, unknown figures as null; null without a state.'),
  ),
  warnings: v.array(WarningSchema),
  disclaimer: v.pipe(
    v.nullable(v.string()),
    v.description("The state table's disclaimer (not legal advice); null without a state."),
  ),
});

export type LateFeeResult = v.InferOutput<typeof LateFeeResultSchema>;

/** The request the docs show and the tests send (its answer is published for as_of/today 2026-11-22). */
export const LATE_FEE_EXAMPLE: v.InferInput<typeof LateFeeRequestSchema> = {
  amount: 10803.74,
  currency: 'USD',
  due_date: '2026-12-02',
  as_of: '2027-03-15',
  grace_days: 10,
  fee_type: 'monthly_percent',
  rate_percent: 1.5,
  compounding: false,
  state: 'CA',
};
