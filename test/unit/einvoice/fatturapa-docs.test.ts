import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { EXAMPLE_FATTURAPA_REQUEST } from '../../../src/einvoice/formats/fatturapa/example.js';
import { checkEInvoice } from '../../../src/einvoice/prepareEInvoice.js';

/** docs/e-invoices-italy.md shows the example the service checks, and the refusal it names. */
const doc = readFileSync(new URL('../../../docs/e-invoices-italy.md', import.meta.url), 'utf8');

test('the page shows src/einvoice/formats/fatturapa/example.ts as written, and it passes', () => {
  const block = /`fatturapa\.json`[^\n]*:\n\n```json\n([\s\S]*?)\n```/.exec(doc);
  assert.ok(block);
  assert.deepEqual(JSON.parse(block[1]!), EXAMPLE_FATTURAPA_REQUEST);
  assert.deepEqual(checkEInvoice(JSON.parse(block[1]!)).issues, []);
  assert.match(doc, /npm run buy -- --route \/v1\/e-invoice\/fatturapa\.xml fatturapa\.json IT01234567897_26042\.xml/);
});

test('the wrong check digit the page shows gives the control it names', () => {
  const body = structuredClone(EXAMPLE_FATTURAPA_REQUEST);
  body.seller.vat_id = 'IT01234567890';
  assert.deepEqual(
    checkEInvoice(body).issues.map((issue) => [issue.code, issue.path]),
    [['00301', 'seller.vat_id']],
  );
  assert.match(doc, /\["00301","seller\.vat_id"\]/);
});
