import assert from 'node:assert/strict';
import { test } from 'node:test';
import { draftReminder } from '../../../src/helpers/reminderDraft/draftReminder.js';
import { ReminderDraftRequestSchema } from '../../../src/helpers/reminderDraft/schema.js';
import { TONES } from '../../../src/helpers/reminderDraft/schema.js';
import { pathsAndCodes, rejectionOf, runOperation } from './runOperation.js';

const reminderDraftHelper = { request: ReminderDraftRequestSchema, run: draftReminder };

const base = {
  from_name: 'Northwind Studio',
  client_name: 'Acme Robotics',
  invoice_number: 'INV-1',
  amount: 1234.5,
  due_date: '2026-12-02',
};
const draft = (body: Record<string, unknown>, today?: string) =>
  runOperation(reminderDraftHelper, { ...base, ...body }, today);

test('status and day counts follow as_of', () => {
  const cases: [string, string, number, number][] = [
    ['2026-11-22', 'upcoming', 0, 10],
    ['2026-12-01', 'upcoming', 0, 1],
    ['2026-12-02', 'due_today', 0, 0],
    ['2026-12-03', 'overdue', 1, 0],
    ['2027-01-01', 'overdue', 30, 0],
  ];
  for (const [asOf, status, daysOverdue, daysUntilDue] of cases) {
    const result = draft({ as_of: asOf });
    assert.deepEqual(
      [result.status, result.days_overdue, result.days_until_due],
      [status, daysOverdue, daysUntilDue],
      asOf,
    );
  }
  assert.equal(draft({}, '2026-12-05').as_of, '2026-12-05'); // default: today
  assert.equal(draft({}, '2026-12-05').status, 'overdue');
});

test('subjects change with tone and status', () => {
  const subjects: [string, string, string][] = [
    ['friendly', '2026-11-22', 'Friendly reminder: invoice INV-1 is due on December 2, 2026'],
    ['friendly', '2026-12-02', 'Friendly reminder: invoice INV-1 is due today'],
    ['friendly', '2026-12-09', 'Friendly reminder: invoice INV-1 is past due'],
    ['neutral', '2026-12-02', 'Payment reminder: invoice INV-1 is due today'],
    ['neutral', '2026-12-09', 'Payment reminder: invoice INV-1 is overdue'],
    ['firm', '2026-11-22', 'Payment due on December 2, 2026: invoice INV-1 ($1,234.50)'],
    ['firm', '2026-12-09', 'Overdue: invoice INV-1 ($1,234.50) is 7 days past due'],
    ['firm', '2026-12-03', 'Overdue: invoice INV-1 ($1,234.50) is 1 day past due'],
    ['final', '2026-12-09', 'Final notice: invoice INV-1 is 7 days overdue'],
    ['final', '2026-12-02', 'Final reminder: invoice INV-1 is due today'],
  ];
  for (const [tone, asOf, subject] of subjects)
    assert.equal(draft({ tone, as_of: asOf }).subject, subject, `${tone} ${asOf}`);
});

test('every tone renders every status as clean plain text', () => {
  for (const tone of TONES) {
    for (const [asOf, phrase] of [
      ['2026-11-22', 'in 10 days'],
      ['2026-12-02', 'today'],
      ['2026-12-09', '7 days'],
    ] as const) {
      for (const link of [undefined, 'https://pay.example.com/i/1']) {
        const { subject, body, tone: answered } = draft({ tone, as_of: asOf, payment_link: link });
        const where = `${tone} ${asOf} ${link ?? 'no link'}`;
        assert.equal(answered, tone);
        assert.match(subject, /INV-1/, where);
        assert.doesNotMatch(subject, /\n/, where);
        assert.match(body, /^(Hi|Dear) Acme Robotics,\n\n/, where);
        assert.ok(body.includes('$1,234.50'), where);
        assert.ok(body.includes('December 2, 2026'), where);
        assert.ok(body.includes(phrase), where);
        assert.ok(body.endsWith('\nNorthwind Studio'), where);
        assert.equal(body.includes('https://pay.example.com/i/1'), link !== undefined, where);
        assert.doesNotMatch(body, /\n{3}|\{\{|\}\}|undefined|null|^\s|\s$|[ \t]\n/, where);
      }
    }
  }
});

test('tones escalate: the final notice says so, the friendly one does not', () => {
  const overdue = { as_of: '2026-12-09' };
  assert.match(draft({ ...overdue, tone: 'final' }).body, /final notice.*further steps/s);
  assert.doesNotMatch(draft({ ...overdue, tone: 'friendly' }).body, /final|further steps/i);
  assert.match(draft({ ...overdue, tone: 'firm' }).body, /without further delay/);
});

test('text is kept as sent: no HTML escaping in plain text', () => {
  const { body } = draft({ client_name: 'Smith & Sons <Ltd>', from_name: 'O\'Brien "Design"', as_of: '2026-12-09' });
  assert.ok(body.startsWith('Hi Smith & Sons <Ltd>,'));
  assert.ok(body.endsWith('O\'Brien "Design"'));
});

test('amounts come from exact minor units; dates are written for the currency', () => {
  const usd = draft({ as_of: '2026-12-09' });
  assert.deepEqual(usd.amount, { minor: 123450, decimal: '1234.50', formatted: '$1,234.50' });
  const yen = draft({ amount: 120000.4, currency: 'JPY', as_of: '2026-12-09' });
  assert.deepEqual(yen.amount, { minor: 120000, decimal: '120000', formatted: '￥120,000' });
  assert.ok(yen.body.includes('2 December 2026'));
  const euro = draft({ currency: 'EUR', as_of: '2026-12-09' });
  assert.ok(euro.body.includes('€1,234.50') && euro.body.includes('2 December 2026'));
  assert.equal(euro.currency, 'EUR');
  assert.equal(draft({}).payment_link, null);
});

test('validation: tone, https link, single-line names, unknown fields', () => {
  const paths = (body: Record<string, unknown>) =>
    pathsAndCodes(rejectionOf(reminderDraftHelper, { ...base, ...body }).issues);
  assert.deepEqual(paths({ tone: 'angry' }), [['tone', 'invalid_value']]);
  assert.deepEqual(paths({ payment_link: 'http://pay.example.com/i/1' }), [['payment_link', 'invalid_value']]);
  assert.deepEqual(paths({ payment_link: 'javascript:alert(1)' }), [['payment_link', 'invalid_value']]);
  assert.deepEqual(paths({ payment_link: 'pay.example.com' }), [['payment_link', 'invalid_value']]);
  assert.deepEqual(paths({ payment_link: `https://pay.example.com/${'x'.repeat(1977)}` }), [
    ['payment_link', 'too_long'],
  ]);
  assert.equal(draft({ payment_link: `https://pay.example.com/${'x'.repeat(1976)}` }).payment_link?.length, 2000);
  assert.deepEqual(paths({ client_name: 'Acme\nRobotics' }), [['client_name', 'invalid_format']]);
  assert.deepEqual(paths({ due_date: '2026-02-29' }), [['due_date', 'invalid_value']]);
  assert.deepEqual(paths({ due_date: '3000-01-01' }), [['due_date', 'invalid_value']]); // helper dates: 1900 to 2999
  assert.deepEqual(paths({ as_of: '1899-12-31' }), [['as_of', 'invalid_value']]);
  assert.deepEqual(paths({ amount: 1e9 + 1 }), [['amount', 'too_big']]);
  assert.deepEqual(paths({ cc: 'boss@example.com' }), [['cc', 'unknown_property']]);
  assert.deepEqual(pathsAndCodes(rejectionOf(reminderDraftHelper, {}).issues).sort(), [
    ['amount', 'required'],
    ['client_name', 'required'],
    ['due_date', 'required'],
    ['from_name', 'required'],
    ['invoice_number', 'required'],
  ]);
});
