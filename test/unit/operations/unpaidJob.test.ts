// A paid operation's body sent without payment or sign-in (OperationJob.unpaid): the worker answers
// only what the 402 needs, the price and the fingerprint, and keeps the input; an input that names a
// stored look still comes back (the main thread looks it up: an unknown one is a 400, not a 402),
// and an invalid body is refused as before.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputRejected } from '../../../src/errors.js';
import { EXAMPLE_INVOICE } from '../../../src/invoice/example.js';
import { runOperationJob, type OperationJob } from '../../../src/operations/operationJobs.js';
import { operationList } from '../../../src/operations/operationList.js';

const operations = new Map(operationList().map((operation) => [operation.operationId, operation]));
const context = { today: '2026-12-06' };
const job = (operationId: string, body: unknown, unpaid?: string): OperationJob => ({
  operationId,
  body: { text: JSON.stringify(body) },
  context,
  compute: false,
  ...(unpaid ? { unpaid: { configuredUsd: unpaid } } : {}),
});

test('an unpaid batch answers its price per invoice and the fingerprint of the parsed body, not the input', () => {
  const batch = { invoices: [1, 2, 3].map((n) => ({ ...EXAMPLE_INVOICE, invoice_number: `B-${n}` })) };
  const parsed = runOperationJob(operations, job('v1_invoices_zip', batch));
  const unpaid = runOperationJob(operations, job('v1_invoices_zip', batch, '0.02'));
  assert.equal(parsed.kind, 'parsed');
  assert.deepEqual(unpaid, {
    kind: 'unpaid',
    priceUsd: '0.06',
    fingerprint: (parsed as { fingerprint: string }).fingerprint,
  });
});

test('an unpaid invoice PDF without a priceOf quotes the configured price', () => {
  const unpaid = runOperationJob(operations, job('v1_invoice_pdf', EXAMPLE_INVOICE, '0.01'));
  assert.equal(unpaid.kind, 'unpaid');
  assert.equal((unpaid as { priceUsd: string }).priceUsd, '0.01');
});

test('an unpaid input that names a stored theme comes back to be looked up', () => {
  const named = { ...EXAMPLE_INVOICE, theme: `sha256:${'a'.repeat(64)}` };
  const result = runOperationJob(operations, job('v1_invoice_pdf', named, '0.01'));
  assert.equal(result.kind, 'parsed');
});

test('an invalid unpaid body is refused as a paid one is (400 before any 402)', () => {
  const invalid = { ...EXAMPLE_INVOICE, currency: 'XXXX' };
  const refusal = (unpaid?: string) => {
    try {
      runOperationJob(operations, job('v1_invoice_pdf', invalid, unpaid));
    } catch (error) {
      assert.ok(error instanceof InputRejected);
      return { code: error.code, issues: error.issues };
    }
    assert.fail('the invalid body was accepted');
  };
  assert.deepEqual(refusal('0.01'), refusal());
});
