import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computePaymentTerms } from '../../../src/helpers/paymentTerms/computePaymentTerms.js';
import { PaymentTermsRequestSchema } from '../../../src/helpers/paymentTerms/schema.js';
import { annualisedDiscountCost } from '../../../src/helpers/paymentTerms/discountCost.js';
import { pathsAndCodes, rejectionOf, runOperation } from './runOperation.js';

const paymentTermsHelper = { request: PaymentTermsRequestSchema, run: computePaymentTerms };

const terms = (body: Record<string, unknown>, today?: string) =>
  runOperation(paymentTermsHelper, { invoice_date: '2026-01-31', amount: 1000, ...body }, today);

test('2/10 Net 30: deadline, due date, discount and discounted amount', () => {
  const result = terms({ terms: '2/10 Net 30', as_of: '2026-02-10' });
  assert.equal(result.due_date, '2026-03-02');
  assert.equal(result.discount_deadline, '2026-02-10');
  assert.equal(result.discount_available, true); // the deadline day itself still counts
  assert.deepEqual(result.discount_amount, { minor: 2000, decimal: '20.00', formatted: '$20.00' });
  assert.deepEqual(result.amount_if_paid_early, { minor: 98000, decimal: '980.00', formatted: '$980.00' });
  assert.equal(result.amount_payable_on_as_of.minor, 98000);
  assert.equal(result.days_until_due, 20);
  assert.deepEqual(result.annualised_cost_of_forgoing_discount, { simple_percent: 37.24, compounded_percent: 44.59 });
});

test('the discount lapses the day after the deadline; days until due turn negative when overdue', () => {
  const after = terms({ terms: '2/10 Net 30', as_of: '2026-02-11' });
  assert.equal(after.discount_available, false);
  assert.equal(after.amount_payable_on_as_of.minor, 100000);
  assert.equal(after.days_until_due, 19);
  const overdue = terms({ terms: '2/10 Net 30', as_of: '2026-03-05' });
  assert.equal(overdue.days_until_due, -3);
  const dueDay = terms({ terms: 'Net 30', as_of: '2026-03-02' });
  assert.equal(dueDay.days_until_due, 0);
});

test('as_of defaults to today', () => {
  assert.equal(terms({ terms: 'Net 30' }, '2026-02-01').as_of, '2026-02-01');
  assert.equal(terms({ terms: 'Net 30' }, '2026-02-01').days_until_due, 29);
});

test('terms without a discount answer null for every discount field', () => {
  for (const text of ['Net 30', 'Net 30 EOM', 'Due on receipt']) {
    const result = terms({ terms: text, as_of: '2026-02-01' });
    assert.equal(result.discount_deadline, null, text);
    assert.equal(result.discount_amount, null, text);
    assert.equal(result.amount_if_paid_early, null, text);
    assert.equal(result.discount_available, false, text);
    assert.equal(result.annualised_cost_of_forgoing_discount, null, text);
    assert.equal(result.amount_payable_on_as_of.minor, 100000, text);
  }
  assert.equal(terms({ terms: 'Net 30 EOM', invoice_date: '2028-02-10', as_of: '2028-02-10' }).due_date, '2028-03-30');
  assert.equal(terms({ terms: 'Due on receipt', as_of: '2026-02-01' }).due_date, '2026-01-31');
});

test('the discount is rounded once, half away from zero; JPY has no minor digits', () => {
  const cents = terms({ terms: '2/10 Net 30', amount: 10.25, as_of: '2026-02-01' }); // 2% of 10.25 = 0.205
  assert.equal(cents.discount_amount?.minor, 21);
  assert.equal(cents.amount_if_paid_early?.decimal, '10.04');
  const yen = terms({ terms: '2/10 Net 30', amount: 123457, currency: 'JPY', as_of: '2026-02-01' }); // 2469.14
  assert.deepEqual(yen.discount_amount, { minor: 2469, decimal: '2469', formatted: '￥2,469' });
  assert.equal(yen.amount_if_paid_early?.minor, 120988);
  const fractional = terms({ terms: '1.5/10 Net 45', amount: 2000, as_of: '2026-02-01' });
  assert.equal(fractional.discount_amount?.minor, 3000);
});

test('annualised cost of forgoing the discount, simple and compounded', () => {
  // [D, X, N, simple, compounded], simple = D/(100−D) × 365/(N−X) × 100
  const cases: [number, number, number, number, number][] = [
    [2, 10, 30, 37.24, 44.59], // 2/98 × 18.25 = 0.372448…; 1.020408^18.25 − 1 = 0.445852…
    [1.5, 10, 45, 15.88, 17.07], // 1.5/98.5 × 365/35 = 0.158810…; (100/98.5)^(365/35) − 1 = 0.170713…
    [1, 10, 30, 18.43, 20.13], // 1/99 × 18.25 = 0.184343…; (100/99)^18.25 − 1 = 0.201317…
    [3, 15, 60, 25.09, 28.03], // 3/97 × 365/45 = 0.250859…; (100/97)^(365/45) − 1 = 0.280253…
  ];
  for (const [percent, discountDays, netDays, simple, compounded] of cases) {
    assert.deepEqual(
      annualisedDiscountCost(percent, discountDays, netDays),
      { simple_percent: simple, compounded_percent: compounded },
      `${percent}/${discountDays} Net ${netDays}`,
    );
  }
  // Too large for a JSON number: the compounded figure is null rather than Infinity.
  assert.equal(annualisedDiscountCost(99.9999, 0, 1).compounded_percent, null);
});

test('bad terms are a 400 on path terms that lists the accepted forms', () => {
  for (const text of ['Net thirty', '2/10 N/30', '2/30 Net 30', '']) {
    const { code, issues } = rejectionOf(paymentTermsHelper, { invoice_date: '2026-01-31', amount: 1, terms: text });
    assert.equal(code, 'validation_failed', text);
    assert.deepEqual(
      issues.map((issue) => issue.path),
      ['terms'],
      text,
    );
  }
  const { issues } = rejectionOf(paymentTermsHelper, { invoice_date: '2026-01-31', amount: 1, terms: 'soon' });
  assert.match(issues[0]?.message ?? '', /"Net N".*"D\/X Net N".*"Net N EOM".*"Due on receipt"/);
});

test('schema: required fields, real dates, unknown fields, currency list', () => {
  const { issues } = rejectionOf(paymentTermsHelper, {
    invoice_date: '2026-02-30',
    terms: 'Net 30',
    amount: -1,
    currency: 'usd',
    extra: 1,
  });
  assert.deepEqual(pathsAndCodes(issues).sort(), [
    ['amount', 'too_small'],
    ['currency', 'invalid_value'],
    ['extra', 'unknown_property'],
    ['invoice_date', 'invalid_value'],
  ]);
  assert.deepEqual(pathsAndCodes(rejectionOf(paymentTermsHelper, {}).issues).sort(), [
    ['amount', 'required'],
    ['invoice_date', 'required'],
    ['terms', 'required'],
  ]);
});
