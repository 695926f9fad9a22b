// What the payment store tests share (payment-store-contract.test.ts, redis-payment-store.test.ts,
// reliability/paymentStore.test.ts): fresh authorization keys, results as a paid request stores
// them, and the checks of what comes back.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../src/errors.js';
import {
  authorizationKey,
  type ClaimOutcome,
  type PaidResult,
  type PaymentStore,
  type PendingResult,
} from '../../src/payment/paymentStore.js';
import { USDC_ON_BASE } from '../../src/payment/usdc.js';
import { startRedisServer, type RedisServer } from './redisServer.js';

/** A key prefix of its own, so that tests sharing one Redis stay apart. */
export const uniquePrefix = () => `test:${randomBytes(6).toString('hex')}:`;

/** Whether a store call failed because the store could not be reached (a 503). */
export const storeUnavailable = (error: unknown) =>
  error instanceof AppError && error.code === 'payment_store_unavailable';

export const newKey = () =>
  authorizationKey(
    'eip155:8453',
    USDC_ON_BASE,
    '0x1111111111111111111111111111111111111111',
    `0x${randomBytes(32).toString('hex')}`,
  );
export const inAMinute = () => Date.now() + 60_000;

export const paidResult = (): PaidResult => ({
  fingerprint: randomBytes(32).toString('hex'),
  status: 200,
  contentType: 'application/pdf',
  headers: { 'Content-Disposition': 'inline; filename="invoice.pdf"', 'X-Page-Count': '3' },
  body: randomBytes(200 * 1024),
  receipt: { success: true, transaction: '0xabc', network: 'eip155:8453' },
  signatureHash: randomBytes(32).toString('hex'),
});

export const pendingResult = (transaction = ''): PendingResult => ({
  fingerprint: randomBytes(32).toString('hex'),
  status: 200,
  contentType: 'application/pdf',
  headers: { 'Content-Disposition': 'inline; filename="invoice.pdf"', 'X-Page-Count': '3' },
  body: randomBytes(200 * 1024),
  transaction,
  signatureHash: randomBytes(32).toString('hex'),
});

export function assertParked(outcome: ClaimOutcome, expected: PendingResult) {
  assert.equal(outcome.kind, 'parked');
  if (outcome.kind !== 'parked') return;
  const { pending } = outcome;
  assert.equal(pending.fingerprint, expected.fingerprint);
  assert.equal(pending.contentType, expected.contentType);
  assert.deepEqual(
    [pending.status, pending.headers],
    [expected.status, expected.headers],
    'the answer head comes back',
  );
  assert.equal(pending.transaction, expected.transaction);
  assert.equal(pending.signatureHash, expected.signatureHash, 'the parked work stays bound to its signature');
  assert.ok(Buffer.isBuffer(pending.body));
  assert.ok(pending.body.equals(expected.body), 'the parked body comes back byte for byte');
}

export function assertDone(outcome: ClaimOutcome, expected: PaidResult) {
  assert.equal(outcome.kind, 'done');
  if (outcome.kind !== 'done') return;
  const { result } = outcome;
  assert.equal(result.fingerprint, expected.fingerprint);
  assert.equal(result.contentType, expected.contentType);
  assert.deepEqual([result.status, result.headers], [expected.status, expected.headers], 'the answer head comes back');
  assert.deepEqual(result.receipt, expected.receipt);
  assert.equal(result.signatureHash, expected.signatureHash, 'the result stays bound to its signature');
  assert.ok(Buffer.isBuffer(result.body));
  assert.equal(result.body.length, expected.body.length);
  assert.ok(result.body.equals(expected.body), 'the body comes back byte for byte');
}

/** Claims every 50 ms until claimed; bounded, so a key that never expires fails the test. */
export async function claimWhenFree(
  store: PaymentStore,
  key: string,
  expiresAtMs: number,
  boundMs: number,
): Promise<ClaimOutcome[]> {
  const seen: ClaimOutcome[] = [];
  const deadline = Date.now() + boundMs;
  for (;;) {
    const outcome = await store.claim(key, expiresAtMs);
    seen.push(outcome);
    if (outcome.kind === 'claimed') return seen;
    assert.ok(Date.now() < deadline, `still ${outcome.kind} after ${boundMs} ms`);
    await sleep(50);
  }
}

/** A Redis server for the file's tests: started before them, stopped after; `url` is set once they run. */
export function useRedisServer(): { url: string } {
  let server: RedisServer | undefined;
  before(async () => {
    server = await startRedisServer();
  });
  after(async () => {
    await server?.stop();
  });
  return {
    get url() {
      return server!.url;
    },
  };
}
