import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_BATCH_ITEMS, prepareBatch } from '../../../src/batch/batchRequest.js';
import { isXmlBatch, produceBatch, xmlBatch } from '../../../src/batch/produceBatch.js';
import { EXAMPLE_EINVOICE } from '../../../src/einvoice/example.js';

const batchOf = (format: string, n: number) =>
  prepareBatch({
    format,
    invoices: Array.from({ length: n }, (_, i) => ({ ...EXAMPLE_EINVOICE, invoice_number: `X-${i}` })),
  });

test('an XML batch is written synchronously, byte for byte what produceBatch answers', async () => {
  const batch = batchOf('cii', 3);
  assert.equal(isXmlBatch(batch), true);
  assert.equal(isXmlBatch(batchOf('pdf', 1)), false);
  const written = xmlBatch(batch);
  assert.equal(written.count, 3);
  assert.deepEqual(written.body, (await produceBatch(undefined, batch)).body);
});

test('a refused payment stops the work within one document: stopped is asked before each one', () => {
  const batch = batchOf('ubl', MAX_BATCH_ITEMS);
  let asked = 0;
  // Refused while the first document is written: the second is never begun.
  assert.throws(() => xmlBatch(batch, () => ++asked > 1), /withdrawn before invoices\[1\]: verify refused the payment/);
  assert.equal(asked, 2);
  assert.throws(() => xmlBatch(batch, () => true), /withdrawn before invoices\[0\]/);
});
