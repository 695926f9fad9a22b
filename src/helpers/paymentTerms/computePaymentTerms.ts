import { validationFailed } from '../../errors.js';
import { divideRounded } from '../../invoice/rounding.js';
import { addDays, daysBetween } from '../calendar.js';
import { minorFromAmount, moneyInRange } from '../minorUnits.js';
import { ratioFromNumber } from '../ratio.js';
import { dueDateUnder, parseTerms } from '../termsExpression.js';
import { annualisedDiscountCost } from './discountCost.js';
import type { PaymentTermsRequest, PaymentTermsResult } from './schema.js';

/** Due date and discount of `input` on its as_of, or on `today` (UTC, YYYY-MM-DD) when as_of is left out. */
export function computePaymentTerms(input: PaymentTermsRequest, today: string): PaymentTermsResult {
  const reading = parseTerms(input.terms);
  if (!reading.ok) throw validationFailed([{ path: 'terms', code: 'invalid_terms', message: reading.message }]);
  const { terms } = reading;
  const { currency } = input;
  const asOf = input.as_of ?? today;
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
