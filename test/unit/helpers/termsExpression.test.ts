import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dueDateUnder, parseTerms } from '../../../src/helpers/termsExpression.js';

test('parses the documented forms, case-insensitively and with extra spaces', () => {
  // [text, normalised, kind, net_days, discount_percent, discount_days]
  const cases: [string, string, string, number, number | null, number | null][] = [
    ['Net 30', 'Net 30', 'net', 30, null, null],
    ['NET 60', 'Net 60', 'net', 60, null, null],
    ['  net   0 ', 'Net 0', 'net', 0, null, null],
    ['2/10 Net 30', '2/10 Net 30', 'discount', 30, 2, 10],
    ['1.5/10 net 45', '1.5/10 Net 45', 'discount', 45, 1.5, 10],
    ['2 / 10 ,  NET 30', '2/10 Net 30', 'discount', 30, 2, 10],
    ['2/10, Net 30', '2/10 Net 30', 'discount', 30, 2, 10],
    ['0.25/0 Net 15', '0.25/0 Net 15', 'discount', 15, 0.25, 0],
    ['Net 30 EOM', 'Net 30 EOM', 'net_eom', 30, null, null],
    ['net 10 eom', 'Net 10 EOM', 'net_eom', 10, null, null],
    ['Due on receipt', 'Due on receipt', 'due_on_receipt', 0, null, null],
    ['DUE  ON  RECEIPT', 'Due on receipt', 'due_on_receipt', 0, null, null],
    ['Net 3650', 'Net 3650', 'net', 3650, null, null],
  ];
  for (const [text, normalised, kind, netDays, percent, discountDays] of cases) {
    const reading = parseTerms(text);
    assert.ok(reading.ok, text);
    assert.deepEqual(
      reading.terms,
      { text: normalised, kind, net_days: netDays, discount_percent: percent, discount_days: discountDays },
      text,
    );
  }
});

test('refuses anything else with a message that says why', () => {
  const cases: [string, RegExp][] = [
    ['Net', /must be one of the forms/],
    ['Net -5', /must be one of the forms/],
    ['Net 30 days', /must be one of the forms/],
    ['30 days', /must be one of the forms/],
    ['2/10', /must be one of the forms/],
    ['2/10 N/30', /must be one of the forms/],
    ['100/10 Net 30', /must be one of the forms/],
    ['2/10 Net 30 EOM', /must be one of the forms/],
    ['Net 30 EOM please', /must be one of the forms/],
    ['Net 3651', /at most 3650 days/],
    ['0/10 Net 30', /greater than 0/],
    ['2/30 Net 30', /discount period \(30 days\) must be shorter than the net period \(30 days\)/],
    ['2/45 Net 30', /must be shorter/],
  ];
  for (const [text, message] of cases) {
    const reading = parseTerms(text);
    assert.equal(reading.ok, false, text);
    if (!reading.ok) assert.match(reading.message, message, text);
  }
});

test('discount terms can be refused where only a due date makes sense', () => {
  const reading = parseTerms('2/10 Net 30', { discount: false });
  assert.equal(reading.ok, false);
  if (!reading.ok) assert.match(reading.message, /early-payment discount/);
  const other = parseTerms('Net thirty', { discount: false });
  assert.ok(!other.ok && !other.message.includes('D/X'));
});

test('due dates: Net N, EOM (N days after the month end), due on receipt, leap years', () => {
  const cases: [string, string, string][] = [
    ['Net 30', '2026-01-31', '2026-03-02'],
    ['Net 30', '2028-01-31', '2028-03-01'],
    ['2/10 Net 30', '2026-01-31', '2026-03-02'],
    ['Net 30 EOM', '2028-02-10', '2028-03-30'], // Feb 29 + 30
    ['Net 30 EOM', '2026-02-10', '2026-03-30'], // Feb 28 + 30
    ['Net 10 EOM', '2026-03-14', '2026-04-10'],
    ['Net 45 EOM', '2026-12-20', '2027-02-14'],
    ['Net 0 EOM', '2026-04-01', '2026-04-30'],
    ['Due on receipt', '2026-05-05', '2026-05-05'],
  ];
  for (const [text, invoiceDate, expected] of cases) {
    const reading = parseTerms(text);
    assert.ok(reading.ok, text);
    assert.equal(dueDateUnder(reading.terms, invoiceDate), expected, `${text} on ${invoiceDate}`);
  }
});
