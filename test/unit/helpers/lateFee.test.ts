import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computeLateFee } from '../../../src/helpers/lateFee/computeLateFee.js';
import { LateFeeRequestSchema } from '../../../src/helpers/lateFee/schema.js';
import { latePeriods } from '../../../src/helpers/lateFee/latePeriods.js';
import { pathsAndCodes, rejectionOf, runOperation } from './runOperation.js';

const lateFeeHelper = { request: LateFeeRequestSchema, run: computeLateFee };

const base = { amount: 1000, due_date: '2026-01-31', rate_percent: 1.5 };
const lateFee = (body: Record<string, unknown>, today?: string) =>
  runOperation(lateFeeHelper, { ...base, ...body }, today);
const minors = (rows: readonly { fee: { minor: number }; balance: { minor: number } }[]) =>
  rows.map((row) => [row.fee.minor, row.balance.minor]);

test('grace boundary: no fee on the last grace day, one period the day after', () => {
  const onLastGraceDay = lateFee({ grace_days: 10, as_of: '2026-02-10' });
  assert.equal(onLastGraceDay.grace_ends, '2026-02-10');
  assert.equal(onLastGraceDay.days_late, 10);
  assert.equal(onLastGraceDay.periods, 0);
  assert.equal(onLastGraceDay.fee.minor, 0);
  assert.equal(onLastGraceDay.balance.minor, 100000);
  assert.deepEqual(onLastGraceDay.schedule, []);

  const dayAfter = lateFee({ grace_days: 10, as_of: '2026-02-11' });
  assert.equal(dayAfter.days_late, 11);
  assert.equal(dayAfter.periods, 1);
  assert.deepEqual(dayAfter.fee, { minor: 1500, decimal: '15.00', formatted: '$15.00' });
  assert.deepEqual(dayAfter.balance, { minor: 101500, decimal: '1015.00', formatted: '$1,015.00' });
  assert.deepEqual(
    dayAfter.schedule.map(({ period, from, to, rate_percent }) => ({ period, from, to, rate_percent })),
    [{ period: 1, from: '2026-02-11', to: '2026-03-10', rate_percent: 1.5 }],
  );

  const noGrace = lateFee({ as_of: '2026-01-31' });
  assert.equal(noGrace.periods, 0);
  assert.equal(lateFee({ as_of: '2026-02-01' }).periods, 1);
});

test('not yet due: no fee, 0 days late', () => {
  const early = lateFee({ as_of: '2026-01-15' });
  assert.equal(early.days_late, 0);
  assert.equal(early.fee.minor, 0);
});

test('periods follow calendar months from the end of grace, month ends and leap days kept', () => {
  const cases: [string, string, [string, string][]][] = [
    [
      '2026-01-31',
      '2026-03-31',
      [
        ['2026-02-01', '2026-02-28'],
        ['2026-03-01', '2026-03-31'],
      ],
    ],
    [
      '2026-01-31',
      '2026-04-01',
      [
        ['2026-02-01', '2026-02-28'],
        ['2026-03-01', '2026-03-31'],
        ['2026-04-01', '2026-04-30'],
      ],
    ],
    ['2028-01-31', '2028-02-29', [['2028-02-01', '2028-02-29']]],
    [
      '2028-01-31',
      '2028-03-01',
      [
        ['2028-02-01', '2028-02-29'],
        ['2028-03-01', '2028-03-31'],
      ],
    ],
    ['2026-12-15', '2027-01-15', [['2026-12-16', '2027-01-15']]],
    [
      '2026-12-15',
      '2027-01-16',
      [
        ['2026-12-16', '2027-01-15'],
        ['2027-01-16', '2027-02-15'],
      ],
    ],
    ['2026-05-10', '2026-05-10', []],
  ];
  for (const [graceEnds, asOf, expected] of cases) {
    assert.deepEqual(
      latePeriods(graceEnds, asOf).map(({ from, to }) => [from, to]),
      expected,
      `${graceEnds} → ${asOf}`,
    );
  }
});

test('simple vs monthly compounding over three periods, one rounding per period', () => {
  // 1000.00 at 1.5% a month, 3 periods (2026-04-15 is in the third month after 2026-01-31).
  const simple = lateFee({ as_of: '2026-04-15' });
  assert.equal(simple.periods, 3);
  assert.equal(simple.days_late, 74);
  assert.deepEqual(minors(simple.schedule), [
    [1500, 101500],
    [1500, 103000],
    [1500, 104500],
  ]);
  assert.equal(simple.fee.minor, 4500);
  assert.equal(simple.balance.minor, 104500);

  const compound = lateFee({ as_of: '2026-04-15', compounding: true });
  // 15.00; 1015.00 × 1.5% = 15.225 → 15.23; 1030.23 × 1.5% = 15.45345 → 15.45
  assert.deepEqual(minors(compound.schedule), [
    [1500, 101500],
    [1523, 103023],
    [1545, 104568],
  ]);
  assert.deepEqual(compound.fee, { minor: 4568, decimal: '45.68', formatted: '$45.68' });
  assert.equal(compound.balance.minor, 104568);
  assert.equal(compound.compounding, true);
});

test('annual_percent is charged as 1/12 a month, exactly', () => {
  const twelve = lateFee({ fee_type: 'annual_percent', rate_percent: 12, as_of: '2026-03-15' });
  assert.deepEqual(minors(twelve.schedule), [
    [1000, 101000],
    [1000, 102000],
  ]);
  assert.equal(twelve.rate_percent, 12);
  assert.equal(twelve.annual_rate_percent, 12);
  assert.equal(twelve.schedule[0]?.rate_percent, 1);

  // 10% a year: 1000.00 × 10/1200 = 8.3333… → 8.33 per period; compounding: 1008.33 × 10/1200 = 8.40275 → 8.40
  const ten = lateFee({ fee_type: 'annual_percent', rate_percent: 10, as_of: '2026-03-15', compounding: true });
  assert.deepEqual(minors(ten.schedule), [
    [833, 100833],
    [840, 101673],
  ]);
  assert.equal(ten.schedule[0]?.rate_percent, 0.833333);
});

test('flat fee: charged once after the grace period', () => {
  const flat = lateFee({
    rate_percent: undefined,
    fee_type: 'flat',
    flat_amount: 25,
    grace_days: 5,
    as_of: '2026-06-30',
  });
  assert.equal(flat.periods, 1);
  assert.deepEqual(flat.fee, { minor: 2500, decimal: '25.00', formatted: '$25.00' });
  assert.equal(flat.balance.minor, 102500);
  assert.equal(flat.rate_percent, null);
  assert.equal(flat.rate_source, null);
  assert.deepEqual(
    flat.schedule.map(({ from, to, rate_percent }) => [from, to, rate_percent]),
    [['2026-02-06', '2026-06-30', null]],
  );
  const inGrace = lateFee({
    rate_percent: undefined,
    fee_type: 'flat',
    flat_amount: 25,
    grace_days: 5,
    as_of: '2026-02-05',
  });
  assert.equal(inGrace.fee.minor, 0);
  assert.equal(inGrace.periods, 0);
});

test('JPY: fees in whole yen', () => {
  const yen = lateFee({ amount: 123457, currency: 'JPY', as_of: '2026-03-15' }); // 1851.855 → 1852 each
  assert.deepEqual(minors(yen.schedule), [
    [1852, 125309],
    [1852, 127161],
  ]);
  assert.deepEqual(yen.fee, { minor: 3704, decimal: '3704', formatted: '￥3,704' });
});

test('as_of defaults to today', () => {
  const result = lateFee({}, '2026-02-01');
  assert.equal(result.as_of, '2026-02-01');
  assert.equal(result.periods, 1);
});

test('state: rules from the table, legal rate used when rate_percent is omitted, disclaimer', () => {
  const texas = lateFee({ rate_percent: undefined, state: 'TX', as_of: '2026-03-15' });
  assert.equal(texas.rate_source, 'state_legal_rate');
  assert.equal(texas.rate_percent, 0.5); // 6% a year as monthly_percent
  assert.equal(texas.annual_rate_percent, 6);
  assert.deepEqual(minors(texas.schedule), [
    [500, 100500],
    [500, 101000],
  ]);
  assert.deepEqual(texas.warnings, []);
  assert.equal(texas.state_rules?.code, 'TX');
  assert.equal(texas.state_rules?.name, 'Texas');
  assert.equal(texas.state_rules?.legal_rate_annual_percent, 6);
  assert.equal(texas.state_rules?.max_contract_rate_annual_percent, 18);
  assert.match(texas.state_rules?.citation ?? '', /\S/);
  assert.match(texas.state_rules?.source_url ?? '', /^https?:\/\//);
  assert.match(texas.disclaimer ?? '', /^Not legal advice/);

  // California, 10% legal rate as annual_percent: 1000.00 × 10/1200 = 8.33
  const california = lateFee({ rate_percent: undefined, fee_type: 'annual_percent', state: 'CA', as_of: '2026-02-15' });
  assert.equal(california.rate_percent, 10);
  assert.equal(california.fee.minor, 833);
  assert.deepEqual(california.warnings, []); // 10% is not above the 10% cap

  assert.equal(lateFee({ as_of: '2026-02-15' }).state_rules, null);
  assert.equal(lateFee({ as_of: '2026-02-15' }).disclaimer, null);
});

test('state warnings: above the legal rate, above the written-contract cap, cap unknown, flat not compared', () => {
  const codes = (body: Record<string, unknown>) =>
    lateFee({ as_of: '2026-02-15', ...body }).warnings.map((warning) => warning.code);
  assert.deepEqual(codes({ state: 'TX', rate_percent: 2 }), ['rate_above_legal_rate', 'rate_above_contract_cap']); // 24% > 6%, > 18%
  assert.deepEqual(codes({ state: 'TX', rate_percent: 1.5 }), ['rate_above_legal_rate']); // 18% is not above 18%
  assert.deepEqual(codes({ state: 'TX', rate_percent: 0.5 }), []); // 6%
  assert.deepEqual(codes({ state: 'AZ', rate_percent: 1.5 }), ['rate_above_legal_rate']); // no general cap
  assert.deepEqual(codes({ state: 'IA', rate_percent: 0.25 }), ['contract_cap_unknown']); // 3% < 5% legal; cap null
  assert.deepEqual(codes({ state: 'ID', rate_percent: 1 }), ['contract_cap_unknown']); // no_general_cap is null: unknown
  assert.deepEqual(codes({ state: 'DE', rate_percent: 1 }), ['contract_cap_unknown']); // legal rate unknown: not compared
  assert.deepEqual(codes({ state: 'TX', rate_percent: undefined, fee_type: 'flat', flat_amount: 25 }), [
    'flat_fee_not_compared',
  ]);
  const message = lateFee({ as_of: '2026-02-15', state: 'TX', rate_percent: 2 }).warnings[1]?.message ?? '';
  assert.match(message, /24%.*Texas.*18%/);
});

test('unknown figures stay null', () => {
  const delaware = lateFee({ state: 'DE', as_of: '2026-02-15' });
  assert.equal(delaware.state_rules?.legal_rate_annual_percent, null);
  assert.equal(delaware.state_rules?.max_contract_rate_annual_percent, null);
  assert.equal(lateFee({ state: 'ID', as_of: '2026-02-15' }).state_rules?.no_general_cap, null);
});

test('validation: unknown state, missing rate, flat rules, unknown field', () => {
  const paths = (body: Record<string, unknown>) =>
    pathsAndCodes(rejectionOf(lateFeeHelper, { ...base, ...body }).issues);
  assert.deepEqual(paths({ state: 'ZZ' }), [['state', 'invalid_value']]);
  assert.deepEqual(paths({ state: 'ca' }), [['state', 'invalid_value']]);
  assert.deepEqual(paths({ rate_percent: undefined }), [['rate_percent', 'required']]);
  const delaware = rejectionOf(lateFeeHelper, { ...base, rate_percent: undefined, state: 'DE' });
  assert.deepEqual(pathsAndCodes(delaware.issues), [['rate_percent', 'required']]);
  assert.match(delaware.issues[0]?.message ?? '', /legal rate of Delaware.*unknown/);
  assert.deepEqual(paths({ rate_percent: 2, fee_type: 'flat', compounding: true }), [
    ['flat_amount', 'required'],
    ['rate_percent', 'not_allowed'],
    ['compounding', 'not_allowed'],
  ]);
  assert.deepEqual(paths({ flat_amount: 25 }), [['flat_amount', 'not_allowed']]);
  assert.deepEqual(paths({ fee_type: 'weekly_percent' }), [['fee_type', 'invalid_value']]);
  assert.deepEqual(paths({ grace_days: 3651 }), [['grace_days', 'too_big']]);
  assert.deepEqual(paths({ grace_days: 1.5 }), [['grace_days', 'not_integer']]);
  assert.deepEqual(paths({ rate_percent: 100.01 }), [['rate_percent', 'too_big']]);
  assert.deepEqual(paths({ penalty: true }), [['penalty', 'unknown_property']]);
});

test('limits: more than 1200 periods, and balances beyond 2^53 − 1 minor units', () => {
  const ancient = rejectionOf(lateFeeHelper, { ...base, due_date: '1900-01-01', as_of: '2026-01-01' });
  assert.deepEqual(pathsAndCodes(ancient.issues), [['as_of', 'too_many_periods']]);
  // 1e9 doubling every month for 20 months is about 1.05e17 cents.
  const huge = rejectionOf(lateFeeHelper, {
    amount: 1e9,
    due_date: '2026-01-31',
    rate_percent: 100,
    compounding: true,
    as_of: '2027-09-15',
  });
  assert.equal(huge.code, 'amount_out_of_range');
});
