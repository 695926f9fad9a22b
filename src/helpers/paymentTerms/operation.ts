import { validationFailed } from '../../errors.js';
import { divideRounded } from '../../invoice/rounding.js';
import { addDays, daysBetween } from '../calendar.js';
import { minorFromAmount, moneyInRange } from '../minorUnits.js';
import type { JsonOperation, OperationContext } from '../operation.js';
import { ratioFromNumber } from '../ratio.js';
import { dueDateUnder, parseTerms } from '../termsExpression.js';
import { annualisedDiscountCost } from './discountCost.js';
import {
  PaymentTermsRequestSchema,
  PaymentTermsResultSchema,
  type PaymentTermsRequest,
  type PaymentTermsResult,
} from './schema.js';

function computePaymentTerms(input: PaymentTermsRequest, context: OperationContext): PaymentTermsResult {
  const reading = parseTerms(input.terms);
  if (!reading.ok) throw validationFailed([{ path: 'terms', code: 'invalid_terms', message: reading.message }]);
  const { terms } = reading;
  const { currency } = input;
  const asOf = input.as_of ?? context.today;
  const dueDate = dueDateUnder(terms, input.invoice_date);
  const amount = minorFromAmount(input.amount, currency);

  const base = {
    terms,
    currency,
    invoice_date: input.invoice_date,
    as_of: asOf,
    due_date: dueDate,
    days_until_due: daysBetween(asOf, dueDate),
    amount: moneyInRange(amount, currency, 'amount'),
  };
  if (terms.discount_percent === null || terms.discount_days === null) {
    return {
      ...base,
      discount_deadline: null,
      discount_available: false,
      discount_amount: null,
      amount_if_paid_early: null,
      amount_payable_on_as_of: base.amount,
      annualised_cost_of_forgoing_discount: null,
    };
  }

  const deadline = addDays(input.invoice_date, terms.discount_days);
  const rate = ratioFromNumber(terms.discount_percent);
  const discount = divideRounded(amount * rate.numerator, 100n * rate.denominator);
  const early = moneyInRange(amount - discount, currency, 'amount_if_paid_early');
  const available = asOf <= deadline;
  return {
    ...base,
    discount_deadline: deadline,
    discount_available: available,
    discount_amount: moneyInRange(discount, currency, 'discount_amount'),
    amount_if_paid_early: early,
    amount_payable_on_as_of: available ? early : base.amount,
    annualised_cost_of_forgoing_discount: annualisedDiscountCost(
      terms.discount_percent,
      terms.discount_days,
      terms.net_days,
    ),
  };
}

export const paymentTermsOperation = {
  operationId: 'v1_payment_terms',
  path: '/v1/payment-terms',
  summary: 'Due date, early-payment discount and its annualised cost from payment terms',
  description:
    'Reads terms written as "Net N", "D/X Net N", "Net N EOM" (N days after the end of the invoice month) or "Due on receipt" and answers the due date, ' +
    'the discount deadline, the discount and the discounted amount in exact minor units, whether the discount is still available on as_of (default today, UTC), ' +
    'the days until due (negative when overdue) and the annualised cost of forgoing the discount, simple d/(1−d) × 365/(N−X) and compounded, in percent rounded to 2 decimals.',
  request: PaymentTermsRequestSchema,
  response: PaymentTermsResultSchema,
  example: { invoice_date: '2026-11-02', terms: '2/10 Net 30', amount: 10803.74, currency: 'USD', as_of: '2026-11-09' },
  run: computePaymentTerms,
} satisfies JsonOperation<typeof PaymentTermsRequestSchema, PaymentTermsResult>;
