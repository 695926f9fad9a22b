import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withStatedNumbers } from '../../../scripts/docs/statedNumbers.js';
import { MAX_BATCH_ITEMS } from '../../../src/batch/batchRequest.js';
import { EINVOICE_PROFILES } from '../../../src/einvoice/profiles.js';
import { CURRENCY_CODES } from '../../../src/invoice/currencies.js';
import { LANGUAGES } from '../../../src/invoice/locales.js';

// The README once said "up to 100 invoices" for weeks after the batch limit became 50.
test('a number the prose states is rewritten to what the code holds', () => {
  const stale =
    'up to 100 invoices; at most **100 invoices**; 3 currencies; in any of the 2 languages; 9 profiles; 7 MCP tools, 7 tools';
  assert.equal(
    withStatedNumbers(stale, 18),
    `up to ${MAX_BATCH_ITEMS} invoices; at most **${MAX_BATCH_ITEMS} invoices**; ${CURRENCY_CODES.length} currencies; in any of the ${LANGUAGES.length} languages; ${EINVOICE_PROFILES.length} profiles; 18 MCP tools, 18 tools`,
  );
});

test('other numbers are left alone', () => {
  const text = '5 invoices for one payment; the four languages of the QR-bill; 100 invoices; 12 minutes; 16currencies';
  assert.equal(withStatedNumbers(text, 18), text);
});
