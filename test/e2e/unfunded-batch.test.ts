// Bounded work before verify: a paid XML batch is written on the compute pool, so a well-formed
// signature from a wallet without funds (verify refuses it) costs the event loop none of the
// batch's work; a funded one still buys the ZIP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { MAX_BATCH_ITEMS } from '../../src/batch/batchRequest.js';
import { ZipWriter } from '../../src/batch/zipWriter.js';
import { EXAMPLE_EINVOICE } from '../../src/einvoice/example.js';
import { usePaidService } from '../support/paymentWorld.js';
import { postJson } from '../support/testApp.js';

const world = usePaidService({ env: { COMPUTE_THREADS: '1' } });

const largestXmlBatch = (prefix: string) => ({
  format: 'ubl',
  invoices: Array.from({ length: MAX_BATCH_ITEMS }, (_, i) => ({
    ...EXAMPLE_EINVOICE,
    invoice_number: `${prefix}-${i}`,
  })),
});

/** Counts the ZIP entries written on this thread (the compute workers load their own copy of the module). */
function countZipEntriesOnThisThread() {
  const original = ZipWriter.prototype.add;
  let count = 0;
  ZipWriter.prototype.add = function (this: ZipWriter, ...args: Parameters<ZipWriter['add']>) {
    count += 1;
    return original.apply(this, args);
  };
  return { count: () => count, restore: () => (ZipWriter.prototype.add = original) };
}

test('an unfunded, well-formed signature on the largest XML batch: the 402, and none of the batch written on the event loop', async () => {
  const body = largestXmlBatch('UNFUNDED');
  const unpaid = await postJson(`${world.service.url}/v1/invoices.zip`, body);
  assert.equal(unpaid.status, 402);
  const required = decodePaymentRequiredHeader(unpaid.headers.get('PAYMENT-REQUIRED')!);
  const broke = new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())));
  const payload = await broke.createPaymentPayload(required);

  const entries = countZipEntriesOnThisThread();
  try {
    const refused = await postJson(`${world.service.url}/v1/invoices.zip`, body, {
      'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payload),
    });
    assert.equal(refused.status, 402, await refused.clone().text());
    const reason = decodePaymentRequiredHeader(refused.headers.get('PAYMENT-REQUIRED')!).error ?? '';
    assert.match(reason, /insufficient|balance|funds/i);
    assert.equal(entries.count(), 0, 'no document of the batch was written on the event loop');
  } finally {
    entries.restore();
  }
});

test('a funded buyer still buys the largest XML batch, written on the pool', async () => {
  const buyer = world.net.buyers[7]!;
  const entries = countZipEntriesOnThisThread();
  try {
    const client = new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(buyer.privateKey)));
    const paid = await wrapFetchWithPayment(fetch, client)(`${world.service.url}/v1/invoices.zip`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(largestXmlBatch('FUNDED')),
      signal: AbortSignal.timeout(60_000),
    });
    const zip = Buffer.from(await paid.arrayBuffer());
    assert.equal(paid.status, 200, zip.toString().slice(0, 300));
    assert.equal(paid.headers.get('X-Invoice-Count'), String(MAX_BATCH_ITEMS));
    assert.equal(zip.subarray(0, 2).toString(), 'PK');
    assert.equal(entries.count(), 0, 'the ZIP was written on a compute worker');
  } finally {
    entries.restore();
  }
});
