// The received e-invoice a clone ships for the README's "Trying it" (docs/examples/received-invoice.xml):
// inspect reads it as the UBL it is, with the totals of the e-invoice example it was written from.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { EXAMPLE_EINVOICE } from '../../src/einvoice/example.js';
import { RECEIVED_EXAMPLE_PATH } from '../../scripts/docs/pages.js';
import { startTestApp, postJson, type TestApp } from '../support/testApp.js';

let app: TestApp;
before(async () => {
  app = await startTestApp({ COMPUTE_THREADS: '0' });
});
after(() => app.close());

test('inspect reads the shipped received e-invoice with the totals of the example it was written from', async () => {
  const xml = readFileSync(join(import.meta.dirname, '..', '..', RECEIVED_EXAMPLE_PATH));
  const inspected = await fetch(`${app.url}/v1/e-invoice/inspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/xml' },
    body: xml,
    signal: AbortSignal.timeout(30_000),
  });
  assert.equal(inspected.status, 200);
  const answer = (await inspected.json()) as {
    syntax: string;
    totals: { document: { grand_total: string }; differences: unknown[] };
    rules: { valid: boolean };
  };
  assert.equal(answer.syntax, 'ubl');
  assert.deepEqual(answer.totals.differences, []);
  assert.equal(answer.rules.valid, true);
  const validated = await postJson(`${app.url}/v1/e-invoice/validate`, EXAMPLE_EINVOICE);
  const expected = (await validated.json()) as { totals: { total: { decimal: string } } };
  assert.equal(answer.totals.document.grand_total, expected.totals.total.decimal);
});
