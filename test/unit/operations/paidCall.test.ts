import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inspect } from 'node:util';
import { paidCaller } from '../../../src/operations/paidCall.js';
import { createLifecycle } from '../../../src/lifecycle.js';
import type { ClaimedPayment, PaymentProcessor, SettleOutcome } from '../../../src/payment/paymentProcessor.js';
import type { SettleResponse } from '@x402/core/types';

/**
 * A named fake processor whose one claimed payment settles when the test says so: the real
 * processor's settlement against a real facilitator is covered by the e2e and reliability suites;
 * here only the lifecycle bookkeeping of paidCall is under test.
 */
function processorSettlingOnCue() {
  let settleNow!: () => void;
  const settled = new Promise<void>((resolve) => (settleNow = resolve));
  let settleCalled!: () => void;
  /** Resolves when paidCall has called settle: the settlement is under way. */
  const settling = new Promise<void>((resolve) => (settleCalled = resolve));
  const payment: ClaimedPayment = {
    from: '0x0000000000000000000000000000000000000001',
    nonce: '0x01',
    verify: async () => ({ kind: 'verified', payer: '0x0000000000000000000000000000000000000001' }),
    release: async () => undefined,
    abandon: async () => undefined,
    settle: async (): Promise<SettleOutcome> => {
      settleCalled();
      await settled;
      return { kind: 'settled', receipt: {} as SettleResponse };
    },
    complete: async () => undefined,
  };
  const processor = {
    requirements: () => ({}),
    check: async () => ({ kind: 'claimed', payment }),
  } as unknown as PaymentProcessor;
  return { processor, settleNow, settling };
}

/**
 * Whether a promise is still pending, read from its state rather than by waiting: settlementsDone
 * returns an already resolved promise when nothing is settling, so no wait could tell more.
 */
const isPending = (promise: Promise<unknown>) => inspect(promise).includes('<pending>');

const resource = { method: 'POST', path: '/v1/x', priceUsd: '0.02', description: 'x', mimeType: 'application/pdf' };
const work = () => ({ contentType: 'application/pdf', body: Buffer.from('%PDF-') });

test('without a delivery hook (MCP), shutdown waits for a settlement under way until it has settled', async () => {
  const lifecycle = createLifecycle();
  const { processor, settleNow, settling } = processorSettlingOnCue();
  const call = paidCaller(processor, lifecycle)(resource as never, {} as never, 'fingerprint', work);
  await settling;
  const done = lifecycle.settlementsDone(5_000);
  assert.ok(isPending(done), 'settlementsDone resolved while the settlement was under way');
  settleNow();
  assert.equal((await call).kind, 'paid');
  assert.ok(!isPending(done), 'the settlement ended with the call, not at the 5 s bound');
});

test('with a delivery hook (HTTP), the settlement lasts until the hook says the answer has left', async () => {
  const lifecycle = createLifecycle();
  const { processor, settleNow } = processorSettlingOnCue();
  let delivered!: () => void;
  settleNow();
  const outcome = await paidCaller(processor, lifecycle)(resource as never, {} as never, 'fingerprint', work, {
    whenDelivered: (done) => (delivered = done),
  });
  assert.equal(outcome.kind, 'paid');
  const done = lifecycle.settlementsDone(5_000);
  assert.ok(isPending(done), 'settled, but its answer has not left yet');
  delivered();
  assert.ok(!isPending(done), 'the delivery ended the settlement, not the 5 s bound');
});
