import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { helperOperations } from '../../src/operations/helperOperations.js';
import { postJson, startTestApp, type TestApp } from '../support/testApp.js';
import type { JsonAnswer } from '../support/json.js';

let app: TestApp;
before(async () => {
  app = await startTestApp();
});
after(async () => {
  await app.close();
});

const example = (path: string) =>
  structuredClone(helperOperations().find((operation) => operation.path === path)!.request!.example) as Record<
    string,
    JsonAnswer
  >;

test('every helper answers its documented example with 200 JSON', async () => {
  const openapi = await (await fetch(`${app.url}/openapi.json`)).json();
  for (const operation of helperOperations()) {
    const documented = openapi.paths[operation.path].post;
    assert.deepEqual(documented.requestBody.content['application/json'].example, operation.request!.example);
    const response = await postJson(`${app.url}${operation.path}`, operation.request!.example);
    assert.equal(response.status, 200, `${operation.path}: ${await response.clone().text()}`);
    assert.match(response.headers.get('content-type') ?? '', /application\/json/);
    const body = await response.json();
    assert.equal(typeof body, 'object');
    assert.equal(documented['x-payment-info'], undefined, `${operation.path} is free by default`);
  }
});

test('unknown fields and bad values are 400 with every issue and its path', async () => {
  const cases: [string, Record<string, JsonAnswer>, string[]][] = [
    [
      '/v1/reminder-draft',
      { ...example('/v1/reminder-draft'), tone: 'rude', payment_link: 'http://pay.example/x', extra: 1 },
      ['extra', 'payment_link', 'tone'],
    ],
    ['/v1/late-fee', { ...example('/v1/late-fee'), state: 'ZZ', grace_days: -1 }, ['grace_days', 'state']],
    ['/v1/payment-terms', { ...example('/v1/payment-terms'), terms: 'pay whenever' }, ['terms']],
    [
      '/v1/invoice-from-timesheet',
      { ...example('/v1/invoice-from-timesheet'), entries: [{ date: '2026-02-30', description: 'x', hours: 0 }] },
      ['entries[0].date', 'entries[0].hours'],
    ],
  ];
  for (const [path, body, paths] of cases) {
    const response = await postJson(`${app.url}${path}`, body);
    assert.equal(response.status, 400, path);
    const { error } = await response.json();
    assert.equal(error.code, 'validation_failed', path);
    assert.deepEqual(
      [...new Set(error.issues.map((issue: { path: string }) => issue.path))].sort(),
      paths,
      `${path}: ${JSON.stringify(error.issues)}`,
    );
  }
  const terms = await (
    await postJson(`${app.url}/v1/payment-terms`, { ...example('/v1/payment-terms'), terms: 'pay whenever' })
  ).json();
  assert.match(terms.error.issues[0].message, /Net N/);
  assert.match(terms.error.issues[0].message, /Due on receipt/);
});

test('payment terms: 2/10 Net 30 on the example', async () => {
  const body = { invoice_date: '2026-11-02', terms: '2/10 Net 30', amount: 1000, currency: 'USD', as_of: '2026-11-10' };
  const result = await (await postJson(`${app.url}/v1/payment-terms`, body)).json();
  assert.equal(result.due_date, '2026-12-02');
  assert.equal(result.discount_deadline, '2026-11-12');
  assert.equal(result.discount_available, true);
  assert.equal(result.discount_amount.minor, 2000);
});

test('a timesheet invoice is accepted unchanged by validate and by the paid route', async () => {
  const response = await postJson(`${app.url}/v1/invoice-from-timesheet`, example('/v1/invoice-from-timesheet'));
  assert.equal(response.status, 200);
  const { invoice, totals } = await response.json();
  const validated = await postJson(`${app.url}/v1/invoice/validate`, invoice);
  assert.equal(validated.status, 200);
  assert.deepEqual(await validated.json(), totals);
  // The paid route accepts the body (it asks for payment or, here without payments, refuses to work for free) instead of a 400.
  const paid = await postJson(`${app.url}/v1/invoice.pdf`, invoice);
  assert.notEqual(paid.status, 400);
});
