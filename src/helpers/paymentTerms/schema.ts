import * as v from 'valibot';
import { CURRENCY_CODES } from '../../invoice/currencies.js';
import { text } from '../../invoice/textRules.js';
import { asOfField, currencyField, DateSchema, helperDate, MoneySchema, moneyAmount } from '../fields.js';
import { ACCEPTED_TERMS, ParsedTermsSchema } from '../termsExpression.js';

export const PaymentTermsRequestSchema = v.strictObject(
  {
    invoice_date: helperDate('Invoice date, YYYY-MM-DD.'),
    terms: text({ min: 1, max: 100, description: `Payment terms, case-insensitive: ${ACCEPTED_TERMS}.` }),
    amount: moneyAmount('Invoice amount the terms apply to.'),
    currency: currencyField,
    as_of: asOfField,
  },
  'unknown property',
);

export type PaymentTermsRequest = v.InferOutput<typeof PaymentTermsRequestSchema>;

export const PaymentTermsResultSchema = v.object({
  terms: ParsedTermsSchema,
  currency: v.picklist(CURRENCY_CODES),
  invoice_date: DateSchema,
  as_of: DateSchema,
  due_date: v.pipe(v.string(), v.description('When the full amount is due, YYYY-MM-DD.')),
  days_until_due: v.pipe(
    v.number(),
    v.description('Days from as_of to the due date; negative when overdue, 0 on the due date.'),
  ),
  amount: MoneySchema,
  discount_deadline: v.pipe(
    v.nullable(v.string()),
    v.description('Last day the discount applies (invoice date + X days); null without a discount.'),
  ),
  discount_available: v.pipe(v.boolean(), v.description('True when as_of is on or before the discount deadline.')),
  discount_amount: v.pipe(
    v.nullable(MoneySchema),
    v.description('round(amount × D / 100), half away from zero; null without a discount.'),
  ),
  amount_if_paid_early: v.pipe(
    v.nullable(MoneySchema),
    v.description('amount − discount_amount; null without a discount.'),
  ),
  amount_payable_on_as_of: v.pipe(
    MoneySchema,
    v.description(
      'What settles the invoice on as_of: the discounted amount while the discount is available, else the amount.',
    ),
  ),
  annualised_cost_of_forgoing_discount: v.pipe(
    v.nullable(
      v.object({
        simple_percent: v.pipe(v.number(), v.description('d/(1−d) × 365/(N−X) in percent, 2 decimals.')),
        compounded_percent: v.pipe(
          v.nullable(v.number()),
          v.description('(1 + d/(1−d))^(365/(N−X)) − 1 in percent, 2 decimals; null if too large for a JSON number.'),
        ),
      }),
    ),
    v.description('The yearly cost of paying on the due date instead of taking the discount; null without a discount.'),
  ),
});

export type PaymentTermsResult = v.InferOutput<typeof PaymentTermsResultSchema>;

/** The request the docs show and the tests send (its answer is published for as_of/today 2026-11-22). */
export const PAYMENT_TERMS_EXAMPLE: v.InferInput<typeof PaymentTermsRequestSchema> = {
  invoice_date: '2026-11-02',
  terms: '2/10 Net 30',
  amount: 10803.74,
  currency: 'USD',
  as_of: '2026-11-09',
};
