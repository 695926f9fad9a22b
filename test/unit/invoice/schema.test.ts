import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputRejected } from '../../../src/errors.js';
import { EXAMPLE_INVOICE } from '../../../src/invoice/example.js';
import { prepareInvoice } from '../../../src/invoice/prepareInvoice.js';
import { CURRENCY_CODES } from '../../../src/invoice/currencies.js';
import type { JsonAnswer } from '../../support/json.js';

type Body = Record<string, JsonAnswer>;
const base = (): Body => structuredClone(EXAMPLE_INVOICE);

/** The issues prepareInvoice reports for a body, or [] when it is accepted. */
function issuesOf(body: unknown) {
  try {
    prepareInvoice(body);
    return [];
  } catch (error) {
    assert.ok(error instanceof InputRejected, `expected a rejection (400), got ${String(error)}`);
    return error.issues ?? [];
  }
}

function withValue(path: string, value: unknown): Body {
  const body = base();
  const keys = path.split('.');
  let target: JsonAnswer = body;
  for (const key of keys.slice(0, -1)) target = target[key];
  target[keys.at(-1)!] = value;
  return body;
}

const text = (length: number) => 'x'.repeat(length);

// [path, largest accepted value, smallest refused value, expected issue code]
const boundaries: [string, unknown, unknown, string][] = [
  ['invoice_number', text(64), text(65), 'too_long'],
  ['invoice_number', 'x', '', 'too_short'],
  ['seller.name', text(120), text(121), 'too_long'],
  ['seller.name', 'x', '', 'too_short'],
  ['buyer.name', text(120), text(121), 'too_long'],
  ['seller.address', text(400), text(401), 'too_long'],
  ['buyer.address', text(400), text(401), 'too_long'],
  [
    'seller.email',
    `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.io`,
    `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(59)}.io`,
    'too_long',
  ],
  ['seller.phone', text(40), text(41), 'too_long'],
  ['seller.tax_id', text(60), text(61), 'too_long'],
  ['buyer.tax_id', text(60), text(61), 'too_long'],
  ['line_items.0.description', text(300), text(301), 'too_long'],
  ['line_items.0.description', 'x', '', 'too_short'],
  ['line_items.0.quantity', 1_000_000, 1_000_000.000001, 'too_big'],
  ['line_items.0.quantity', 0.000001, 0, 'too_small'],
  ['line_items.0.unit_price', 1_000_000_000, 1_000_000_000.01, 'too_big'],
  ['line_items.0.unit_price', 0, -0.01, 'too_small'],
  ['tax_rate', 100, 100.0001, 'too_big'],
  ['tax_rate', 0, -0.0001, 'too_small'],
  ['discount', 0, -0.01, 'too_small'],
  ['notes', text(2000), text(2001), 'too_long'],
  ['payment_instructions', text(1000), text(1001), 'too_long'],
];

test('every limit holds at its exact boundary: max passes, max+1 fails', () => {
  for (const [path, accepted, refused, code] of boundaries) {
    const body = withValue(path, accepted);
    if (path === 'line_items.0.unit_price' || path === 'line_items.0.quantity') body.discount = 0;
    assert.deepEqual(issuesOf(body), [], `${path} = ${String(accepted).slice(0, 20)} should pass`);
    const issues = issuesOf(withValue(path, refused));
    const expectedPath = path.replace(/\.(\d+)\./, '[$1].');
    assert.ok(
      issues.some((issue) => issue.path === expectedPath && issue.code === code),
      `${path} = ${String(refused).slice(0, 20)} should fail with ${code}; got ${JSON.stringify(issues)}`,
    );
  }
});

test('the discount maximum is 1000000000', () => {
  const body = withValue('discount', 1_000_000_000);
  body.line_items = [{ description: 'big', quantity: 1, unit_price: 1_000_000_000 }];
  assert.deepEqual(issuesOf(body), []);
  body.discount = 1_000_000_000.01;
  assert.equal(issuesOf(body)[0]?.code, 'too_big');
});

test('line items: 1 to 200', () => {
  const item = { description: 'x', quantity: 1, unit_price: 1 };
  assert.deepEqual(issuesOf({ ...base(), discount: 0, line_items: Array(200).fill(item) }), []);
  assert.equal(issuesOf({ ...base(), line_items: Array(201).fill(item) })[0]?.code, 'too_long');
  assert.equal(issuesOf({ ...base(), line_items: [] })[0]?.code, 'too_short');
});

test('dates must be real calendar dates and due_date not before issue_date', () => {
  const cases: [Body, string, string][] = [
    [withValue('issue_date', '2026-02-30'), 'issue_date', 'invalid_value'],
    [withValue('issue_date', '2026-13-01'), 'issue_date', 'invalid_value'],
    [withValue('issue_date', '2025-02-29'), 'issue_date', 'invalid_value'],
    [withValue('issue_date', '26-01-01'), 'issue_date', 'invalid_format'],
    [withValue('issue_date', '2026-1-01'), 'issue_date', 'invalid_format'],
    [withValue('issue_date', '2026-01-01T00:00:00Z'), 'issue_date', 'invalid_format'],
    [withValue('due_date', '2026-11-01'), 'due_date', 'invalid_value'],
  ];
  for (const [body, path, code] of cases) {
    assert.ok(
      issuesOf(body).some((issue) => issue.path === path && issue.code === code),
      `${path} ${body[path]}: ${JSON.stringify(issuesOf(body))}`,
    );
  }
  assert.deepEqual(issuesOf({ ...withValue('issue_date', '2028-02-29'), due_date: '2028-03-01' }), []);
  assert.deepEqual(issuesOf({ ...withValue('due_date', '2026-11-02') }), []); // due on the issue day
});

test('currency: the 12 codes, default USD, anything else listed', () => {
  for (const code of CURRENCY_CODES) assert.deepEqual(issuesOf(withValue('currency', code)), [], code);
  const body = base();
  delete body.currency;
  assert.equal(prepareInvoice(body).totals.currency, 'USD');
  for (const bad of ['usd', 'XXX', 'US', '', 1]) {
    const [issue] = issuesOf(withValue('currency', bad));
    assert.equal(issue?.path, 'currency');
    assert.match(issue?.message ?? '', /USD, EUR, GBP, JPY, CAD, AUD, CHF, CNY, INR, MXN, BRL, SGD, PLN/);
  }
});

test('email must be conventional local-part@domain with a TLD of 2+ letters', () => {
  for (const good of ['a@b.co', 'first.last+tag@mail.example.org', 'x_y-z@sub-domain.example.io']) {
    assert.deepEqual(issuesOf(withValue('seller.email', good)), [], good);
  }
  for (const bad of ['plain', 'a@b', 'a@b.c', '@b.co', 'a@.co', 'a b@c.co', 'a@b.c0', 'a@@b.co']) {
    assert.equal(issuesOf(withValue('seller.email', bad))[0]?.code, 'invalid_email', bad);
  }
});

test('unknown properties are rejected at every level; all issues are listed at once', () => {
  const body = base();
  body.extra = 1;
  body.seller.fax = '1';
  body.line_items[1].sku = 'A';
  body.invoice_number = '';
  body.line_items[3].quantity = -1;
  const issues = issuesOf(body);
  const paths = issues.map((issue) => `${issue.path}:${issue.code}`).sort();
  assert.deepEqual(paths, [
    'extra:unknown_property',
    'invoice_number:too_short',
    'line_items[1].sku:unknown_property',
    'line_items[3].quantity:too_small',
    'seller.fax:unknown_property',
  ]);
});

test('wrong types, missing fields and odd values are clean 400s', () => {
  const cases: [unknown, string, string][] = [
    [null, '', 'invalid_type'],
    ['text', '', 'invalid_type'],
    [{ ...base(), seller: undefined }, 'seller', 'required'],
    [{ ...base(), line_items: 'many' }, 'line_items', 'invalid_type'],
    [withValue('line_items.0.quantity', '2'), 'line_items[0].quantity', 'invalid_type'],
    [withValue('line_items.0.quantity', Number.NaN), 'line_items[0].quantity', 'invalid_type'],
    [withValue('tax_rate', Number.POSITIVE_INFINITY), 'tax_rate', 'invalid_number'],
    [withValue('tax_rate', null), 'tax_rate', 'invalid_type'],
    [withValue('notes', 'bell\u0007'), 'notes', 'invalid_format'],
    [withValue('notes', 'carriage\rreturn'), 'notes', 'invalid_format'],
    [withValue('notes', 'c1\u0085'), 'notes', 'invalid_format'],
  ];
  for (const [body, path, code] of cases) {
    const issues = issuesOf(body);
    assert.ok(
      issues.some((issue) => issue.path === path && issue.code === code),
      `${path}: ${JSON.stringify(issues)}`,
    );
  }
  // -0 is zero; newline, tab and any Unicode are fine and kept as sent.
  assert.deepEqual(issuesOf(withValue('line_items.0.unit_price', -0)), []);
  const unicode = withValue('notes', '  Merci — 谢谢 — شكرا ₹ ¥ € £ R$\n\tend  ');
  assert.equal(prepareInvoice(unicode).invoice.notes, '  Merci — 谢谢 — شكرا ₹ ¥ € £ R$\n\tend  ');
});

test('a __proto__ key is reported as an unknown property and pollutes nothing', () => {
  const body = JSON.parse(`{"__proto__":{"polluted":true},${JSON.stringify(base()).slice(1)}`);
  const issues = issuesOf(body);
  assert.deepEqual(
    issues.map((issue) => issue.path),
    ['__proto__'],
  );
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
