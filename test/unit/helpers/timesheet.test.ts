import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { invoiceFromTimesheet } from '../../../src/helpers/timesheet/invoiceFromTimesheet.js';
import { TimesheetRequestSchema } from '../../../src/helpers/timesheet/schema.js';
import { hoursFromMinutes, roundedMinutes, type RoundingMode } from '../../../src/helpers/timesheet/hours.js';
import { decimalToString } from '../../../src/invoice/decimal.js';
import { prepareInvoice } from '../../../src/invoice/prepareInvoice.js';
import { buildTotalsReport } from '../../../src/invoice/totalsReport.js';
import { pathsAndCodes, rejectionOf, runOperation } from './runOperation.js';
import type { JsonAnswer } from '../../support/json.js';

const timesheetHelper = { request: TimesheetRequestSchema, run: invoiceFromTimesheet };

type Entry = { date: string; description: string; hours: number; rate?: number };

const base = {
  seller: { name: 'Northwind Studio' },
  buyer: { name: 'Acme Robotics' },
  invoice_number: 'T-1',
  issue_date: '2026-11-30',
  default_rate: 100,
};
const fromTimesheet = (entries: Entry[], body: Record<string, unknown> = {}) =>
  runOperation(timesheetHelper, { ...base, entries, ...body });
const lines = (result: ReturnType<typeof fromTimesheet>) =>
  result.invoice.line_items.map(({ description, quantity, unit_price }) => [description, quantity, unit_price]);

test('rounding an entry to the increment: up, nearest (half away from zero), down', () => {
  const cases: [number, number, RoundingMode, bigint][] = [
    [1.1, 15, 'up', 75n], // 66 min
    [1.1, 15, 'nearest', 60n], // 4.4 increments → 4
    [1.1, 15, 'down', 60n],
    [1.125, 15, 'nearest', 75n], // 67.5 min = 4.5 increments → 5
    [1.125, 15, 'down', 60n],
    [0.125, 15, 'nearest', 15n], // 7.5 min: half an increment rounds up
    [0.1, 15, 'nearest', 0n], // 6 min
    [0.1, 15, 'up', 15n],
    [0.1, 15, 'down', 0n],
    [2, 15, 'up', 120n], // exact: no extra increment
    [0.05, 6, 'up', 6n], // 3 min
    [0.333333, 6, 'nearest', 18n], // 19.99998 min = 3.33 increments → 3
    [7.9, 240, 'nearest', 480n], // 474 min = 1.975 increments → 2
    [8, 240, 'down', 480n],
    [0.000001, 3, 'up', 3n],
    [1000, 3, 'down', 60000n],
  ];
  for (const [hours, increment, mode, minutes] of cases) {
    assert.equal(roundedMinutes(hours, increment, mode), minutes, `${hours} h to ${increment} min ${mode}`);
  }
});

test('property: down ≤ exact ≤ up, nearest between them, at most one increment apart', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 1_000_000_000 }), fc.integer({ min: 1, max: 80 }), (microHours, thirds) => {
      const hours = microHours / 1_000_000; // at most 6 decimals, up to 1000 hours
      const increment = thirds * 3;
      const [down, nearest, up] = (['down', 'nearest', 'up'] as const).map((mode) =>
        roundedMinutes(hours, increment, mode),
      ) as [bigint, bigint, bigint];
      const exactMinutesTimesMillion = BigInt(microHours) * 60n; // minutes × 10^6
      assert.ok(down * 1_000_000n <= exactMinutesTimesMillion && exactMinutesTimesMillion <= up * 1_000_000n);
      assert.ok(down <= nearest && nearest <= up);
      assert.ok(up - down === 0n || up - down === BigInt(increment));
      for (const minutes of [down, nearest, up]) assert.equal(minutes % BigInt(increment), 0n);
    }),
  );
});

test('rounded minutes are exact hours with at most 2 decimals', () => {
  const cases: [bigint, string][] = [
    [75n, '1.25'],
    [3n, '0.05'],
    [6n, '0.1'],
    [0n, '0'],
    [60000n, '1000'],
    [45n, '0.75'],
  ];
  for (const [minutes, hours] of cases) assert.equal(decimalToString(hoursFromMinutes(minutes)), hours);
  assert.throws(() => hoursFromMinutes(20n), RangeError);
});

const week: Entry[] = [
  { date: '2026-11-05', description: 'Design', hours: 1.1 },
  { date: '2026-11-03', description: 'Review', hours: 0.5 },
  { date: '2026-11-04', description: 'Design', hours: 2 },
  { date: '2026-11-03', description: 'Design', hours: 0.75, rate: 120 },
  { date: '2026-11-04', description: 'Review', hours: 0.2 },
];

test('group_by description: one line per description and rate, ordered by first date, hours summed after rounding', () => {
  const result = fromTimesheet(week, { rounding: { increment_minutes: 15, mode: 'up' } });
  assert.deepEqual(lines(result), [
    ['Review', 0.75, 100], // 30 min + 12 min → 15 = 45 min; first date 2026-11-03 (entry 1)
    ['Design', 0.75, 120], // its own rate, so its own line; 2026-11-03 (entry 3)
    ['Design', 3.25, 100], // 66 min → 75, plus 120 = 195 min; first date 2026-11-04
  ]);
  assert.deepEqual(
    result.summary.groups.map((group) => [
      group.description,
      group.entries,
      group.hours_before_rounding,
      group.hours_after_rounding,
      group.line_index,
    ]),
    [
      ['Review', [1, 4], 0.7, 0.75, 0],
      ['Design', [3], 0.75, 0.75, 1],
      ['Design', [0, 2], 3.1, 3.25, 2],
    ],
  );
  assert.equal(result.summary.hours_before_rounding, 4.55);
  assert.equal(result.summary.hours_after_rounding, 4.75);
  // 0.75 × 100 + 0.75 × 120 + 3.25 × 100 = 75 + 90 + 325
  assert.equal(result.totals.subtotal.minor, 49000);
});

test('group_by date and none', () => {
  const byDate = fromTimesheet(week, { group_by: 'date' });
  assert.deepEqual(lines(byDate), [
    ['2026-11-03: Review', 0.5, 100],
    ['2026-11-03: Design', 0.75, 120],
    ['2026-11-04: Design; Review', 2.2, 100],
    ['2026-11-05: Design', 1.1, 100],
  ]);
  assert.deepEqual(
    byDate.summary.groups.map((group) => group.date),
    ['2026-11-03', '2026-11-03', '2026-11-04', '2026-11-05'],
  );

  const perEntry = fromTimesheet(week, { group_by: 'none' });
  assert.deepEqual(
    lines(perEntry).map(([description]) => description),
    ['2026-11-05: Design', '2026-11-03: Review', '2026-11-04: Design', '2026-11-03: Design', '2026-11-04: Review'],
  );
  assert.equal(perEntry.summary.group_by, 'none');
});

test('without rounding, hours are billed exactly as sent', () => {
  const result = fromTimesheet([
    { date: '2026-11-03', description: 'Support', hours: 0.1 },
    { date: '2026-11-04', description: 'Support', hours: 0.2 },
  ]);
  assert.deepEqual(lines(result), [['Support', 0.3, 100]]); // exact decimal sum, not 0.30000000000000004
  assert.equal(result.summary.rounding, null);
  assert.equal(result.summary.hours_after_rounding, 0.3);
});

test('expenses become quantity-1 lines after the time; terms set the due date; tax, notes and instructions pass through', () => {
  const result = fromTimesheet([{ date: '2026-11-03', description: 'Workshop', hours: 3 }], {
    expenses: [
      { description: 'Train ticket', amount: 89.9 },
      { description: 'Room hire', amount: 250 },
    ],
    terms: 'Net 14',
    tax_rate: 19,
    notes: 'Thank you!',
    payment_instructions: 'IBAN DE00 0000',
  });
  assert.deepEqual(lines(result), [
    ['Workshop', 3, 100],
    ['Train ticket', 1, 89.9],
    ['Room hire', 1, 250],
  ]);
  assert.equal(result.invoice.due_date, '2026-12-14');
  assert.equal(result.invoice.tax_rate, 19);
  assert.equal(result.invoice.notes, 'Thank you!');
  assert.equal(result.invoice.payment_instructions, 'IBAN DE00 0000');
  // 300 + 89.90 + 250 = 639.90; tax 19% = 121.581 → 121.58
  assert.equal(result.totals.subtotal.minor, 63990);
  assert.equal(result.totals.tax.minor, 12158);
  assert.equal(result.totals.total.minor, 76148);
  assert.equal(result.summary.expense_lines, 2);

  const eom = fromTimesheet([{ date: '2026-11-03', description: 'Workshop', hours: 3 }], {
    terms: 'net 30 eom',
    issue_date: '2028-02-10',
  });
  assert.equal(eom.invoice.due_date, '2028-03-30');
  const none = fromTimesheet([{ date: '2026-11-03', description: 'Workshop', hours: 3 }]);
  assert.equal('due_date' in none.invoice, false);
});

test('the invoice passes prepareInvoice unchanged, also after a JSON round trip', () => {
  const result = fromTimesheet(week, {
    rounding: { increment_minutes: 6, mode: 'nearest' },
    tax_rate: 7.5,
    expenses: [{ description: 'Fonts', amount: 35 }],
  });
  const sent = JSON.parse(JSON.stringify(result.invoice));
  assert.deepEqual(buildTotalsReport(prepareInvoice(sent)), result.totals);
  assert.deepEqual(JSON.parse(JSON.stringify(result.totals)), result.totals);
});

test('JPY: whole yen', () => {
  const result = fromTimesheet([{ date: '2026-11-03', description: '翻訳', hours: 0.75, rate: 7777 }], {
    currency: 'JPY',
  });
  // 0.75 × 7777 = 5832.75 → 5833
  assert.deepEqual(result.totals.lines[0]?.amount, { minor: 5833, decimal: '5833', formatted: '￥5,833' });
  assert.equal(result.invoice.currency, 'JPY');
});

test('groups that round to 0 hours are left off the invoice and listed, never lost', () => {
  const result = fromTimesheet(
    [
      { date: '2026-11-03', description: 'Call', hours: 0.1 }, // 6 min → 0 with 15 nearest
      { date: '2026-11-03', description: 'Build', hours: 2 },
      { date: '2026-11-04', description: 'Call', hours: 0.05 }, // 3 min → 0
    ],
    { rounding: { increment_minutes: 15, mode: 'nearest' } },
  );
  assert.deepEqual(lines(result), [['Build', 2, 100]]);
  assert.deepEqual(result.summary.omitted_entries, [0, 2]);
  assert.deepEqual(
    result.summary.groups.map((group) => [
      group.description,
      group.line_index,
      group.hours_before_rounding,
      group.hours_after_rounding,
    ]),
    [
      ['Call', null, 0.15, 0],
      ['Build', 0, 2, 2],
    ],
  );
  // A zero entry inside a group that still bills time stays with its group.
  const merged = fromTimesheet(
    [
      { date: '2026-11-03', description: 'Call', hours: 0.1 },
      { date: '2026-11-04', description: 'Call', hours: 1 },
    ],
    { rounding: { increment_minutes: 15, mode: 'nearest' } },
  );
  assert.deepEqual(lines(merged), [['Call', 1, 100]]);
  assert.deepEqual(merged.summary.omitted_entries, []);

  const nothing = rejectionOf(timesheetHelper, {
    ...base,
    entries: [{ date: '2026-11-03', description: 'Call', hours: 0.1 }],
    rounding: { increment_minutes: 15, mode: 'down' },
  });
  assert.equal(nothing.code, 'nothing_to_invoice');
  const onlyExpenses = fromTimesheet([{ date: '2026-11-03', description: 'Call', hours: 0.1 }], {
    rounding: { increment_minutes: 15, mode: 'down' },
    expenses: [{ description: 'Parking', amount: 12 }],
  });
  assert.deepEqual(lines(onlyExpenses), [['Parking', 1, 12]]);
  assert.deepEqual(onlyExpenses.summary.omitted_entries, [0]);
});

const distinct = (count: number): Entry[] =>
  Array.from({ length: count }, (_, index) => ({ date: '2026-11-03', description: `Task ${index + 1}`, hours: 1 }));

test('more than 200 lines after grouping is a 400; exactly 200 passes', () => {
  assert.equal(fromTimesheet(distinct(200)).invoice.line_items.length, 200);
  const tooMany = rejectionOf(timesheetHelper, { ...base, entries: distinct(201) });
  assert.equal(tooMany.code, 'too_many_lines');
  assert.deepEqual(pathsAndCodes(tooMany.issues), [['entries', 'too_many_lines']]);
  const withExpenses = rejectionOf(timesheetHelper, {
    ...base,
    entries: distinct(199),
    expenses: [
      { description: 'a', amount: 1 },
      { description: 'b', amount: 1 },
    ],
  });
  assert.equal(withExpenses.code, 'too_many_lines');
  // The same 201 entries fit one line when grouped by date.
  assert.equal(fromTimesheet(distinct(201), { group_by: 'date' }).invoice.line_items.length, 1);
});

test('a date line lists its descriptions and is cut to 300 characters', () => {
  const entries = Array.from({ length: 30 }, (_, index) => ({
    date: '2026-11-03',
    description: `Activity number ${index}`,
    hours: 0.5,
  }));
  const [line] = fromTimesheet(entries, { group_by: 'date' }).invoice.line_items;
  assert.equal(line?.description.length, 300);
  assert.ok(line?.description.startsWith('2026-11-03: Activity number 0; Activity number 1;'));
  assert.ok(line?.description.endsWith('…'));
  assert.equal(line?.quantity, 15);
});

test('validation: missing rates, terms, increments, hours, limits, unknown fields at every level', () => {
  const entry = { date: '2026-11-03', description: 'Work', hours: 1 };
  const paths = (body: Record<string, unknown>) =>
    pathsAndCodes(rejectionOf(timesheetHelper, { ...base, entries: [entry], ...body }).issues);

  assert.deepEqual(
    paths({ default_rate: undefined, entries: [entry, { ...entry, rate: 90 }, entry], terms: '2/10 Net 30' }),
    [
      ['terms', 'invalid_terms'],
      ['entries[0].rate', 'required'],
      ['entries[2].rate', 'required'],
    ],
  );
  assert.deepEqual(paths({ terms: 'Net thirty' }), [['terms', 'invalid_terms']]);
  assert.deepEqual(paths({ rounding: { increment_minutes: 10, mode: 'up' } }), [
    ['rounding.increment_minutes', 'invalid_value'],
  ]);
  assert.deepEqual(paths({ rounding: { increment_minutes: 243, mode: 'up' } }), [
    ['rounding.increment_minutes', 'too_big'],
  ]);
  assert.deepEqual(paths({ rounding: { increment_minutes: 0, mode: 'up' } }), [
    ['rounding.increment_minutes', 'too_small'],
  ]);
  assert.deepEqual(paths({ rounding: { increment_minutes: 15, mode: 'ceiling' } }), [
    ['rounding.mode', 'invalid_value'],
  ]);
  assert.deepEqual(paths({ rounding: { increment_minutes: 15 } }), [['rounding.mode', 'required']]);
  assert.deepEqual(paths({ entries: [{ ...entry, hours: 0 }] }), [['entries[0].hours', 'too_small']]);
  assert.deepEqual(paths({ entries: [{ ...entry, hours: 1.0000001 }] }), [['entries[0].hours', 'invalid_value']]);
  assert.deepEqual(paths({ entries: [{ ...entry, hours: 1000.5 }] }), [['entries[0].hours', 'too_big']]);
  assert.deepEqual(paths({ entries: [] }), [['entries', 'too_short']]);
  assert.deepEqual(paths({ group_by: 'week' }), [['group_by', 'invalid_value']]);
  assert.deepEqual(paths({ entries: Array.from({ length: 2001 }, () => entry) }), [['entries', 'too_long']]);
  assert.deepEqual(
    paths({
      hourly: true,
      seller: { name: 'S', vat: 'x' },
      entries: [{ ...entry, billable: true }],
      expenses: [{ description: 'x', amount: 1, date: '2026-11-03' }],
      rounding: { increment_minutes: 15, mode: 'up', per: 'entry' },
    }).sort(),
    [
      ['entries[0].billable', 'unknown_property'],
      ['expenses[0].date', 'unknown_property'],
      ['hourly', 'unknown_property'],
      ['rounding.per', 'unknown_property'],
      ['seller.vat', 'unknown_property'],
    ],
  );
});

test('a line may not exceed the invoice quantity limit of 1000000 hours', () => {
  const { code, issues } = rejectionOf(timesheetHelper, {
    ...base,
    entries: Array.from({ length: 1001 }, () => ({ date: '2026-11-03', description: 'Run', hours: 1000 })),
  });
  assert.equal(code, 'validation_failed');
  assert.deepEqual(pathsAndCodes(issues), [['entries[0]', 'too_many_hours']]);
  assert.match(issues[0]?.message ?? '', /1001000 hours/);
});

test('time lines carry the unit HUR; locale, purchase order, buyer reference and bank details pass through', () => {
  const { invoice } = fromTimesheet([{ date: '2026-11-02', description: 'Design', hours: 2 }], {
    expenses: [{ description: 'Train', amount: 80 }],
    locale: 'de-DE',
    purchase_order: 'PO-1',
    buyer_reference: 'REF-9',
    payment: { iban: 'DE89370400440532013000' },
  }) as { invoice: Record<string, JsonAnswer> };
  assert.deepEqual(
    invoice.line_items.map((line: { unit?: string }) => line.unit ?? null),
    ['HUR', null],
  );
  assert.equal(invoice.locale, 'de-DE');
  assert.equal(invoice.purchase_order, 'PO-1');
  assert.equal(invoice.buyer_reference, 'REF-9');
  assert.deepEqual(invoice.payment, { iban: 'DE89370400440532013000', qr: 'auto' });
  const rejected = rejectionOf(timesheetHelper, {
    ...base,
    entries: [{ date: '2026-11-02', description: 'D', hours: 1 }],
    locale: 'xx',
  });
  assert.deepEqual(pathsAndCodes(rejected.issues), [['locale', 'invalid_value']]);
});
