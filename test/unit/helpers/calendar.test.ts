import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addDays, addMonths, dayCount, daysBetween, endOfMonth } from '../../../src/helpers/calendar.js';

test('addMonths keeps the day, clamped to the month end, leap years included', () => {
  const cases: [string, number, string][] = [
    ['2026-01-31', 1, '2026-02-28'],
    ['2028-01-31', 1, '2028-02-29'], // leap year
    ['2026-01-31', 2, '2026-03-31'], // counted from the anchor, not chained through Feb 28
    ['2026-03-31', 1, '2026-04-30'],
    ['2026-12-15', 1, '2027-01-15'],
    ['2028-02-29', 12, '2029-02-28'],
    ['2100-01-31', 1, '2100-02-28'], // 2100 is not a leap year
    ['2000-01-31', 1, '2000-02-29'], // 2000 is
    ['2026-05-10', 0, '2026-05-10'],
  ];
  for (const [date, months, expected] of cases)
    assert.equal(addMonths(date, months), expected, `${date} + ${months} months`);
});

test('addDays and daysBetween cross month, year and leap-day boundaries in UTC', () => {
  const cases: [string, number, string][] = [
    ['2028-02-28', 1, '2028-02-29'],
    ['2026-02-28', 1, '2026-03-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2026-01-31', 30, '2026-03-02'],
    ['2026-03-28', 2, '2026-03-30'], // across a European DST change: still whole days
  ];
  for (const [date, days, expected] of cases) {
    assert.equal(addDays(date, days), expected, `${date} + ${days}`);
    assert.equal(daysBetween(date, expected), days);
  }
  assert.equal(daysBetween('2026-01-01', '2027-01-01'), 365);
  assert.equal(daysBetween('2028-01-01', '2029-01-01'), 366);
  assert.equal(daysBetween('2026-12-09', '2026-12-02'), -7);
});

test('endOfMonth', () => {
  const cases: [string, string][] = [
    ['2028-02-10', '2028-02-29'],
    ['2026-02-10', '2026-02-28'],
    ['2100-02-01', '2100-02-28'],
    ['2026-12-05', '2026-12-31'],
    ['2026-04-30', '2026-04-30'],
  ];
  for (const [date, expected] of cases) assert.equal(endOfMonth(date), expected, date);
});

test('dayCount writes singular and plural', () => {
  assert.equal(dayCount(1), '1 day');
  assert.equal(dayCount(0), '0 days');
  assert.equal(dayCount(7), '7 days');
});
