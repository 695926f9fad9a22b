import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { AppError } from '../../src/errors.js';
import { authorizationKey } from '../../src/payment/paymentStore.js';
import { createRedisPaymentStore } from '../../src/payment/redisPaymentStore.js';
import { startRedisServer } from '../support/redisServer.js';
import { figure, ms, timingTarget, variant } from './harness.js';
import { USDC_ON_BASE } from '../../src/payment/usdc.js';

/**
 * 10 Redis outage: a paid request must not hang on a Redis that is gone. Target: every store call
 * fails with payment_store_unavailable within 2 s, for a store that was connected and for one that
 * starts during the outage.
 */
const newKey = () =>
  authorizationKey(
    'eip155:8453',
    USDC_ON_BASE,
    '0x1111111111111111111111111111111111111111',
    `0x${randomBytes(32).toString('hex')}`,
  );
const inAMinute = () => Date.now() + 60_000;
const unavailable = (error: unknown) => error instanceof AppError && error.code === 'payment_store_unavailable';

test('Redis outage: store calls fail within 2 s', { timeout: 120_000 }, async () => {
  const server = await startRedisServer();
  const store = createRedisPaymentStore({
    url: server.url,
    keyPrefix: `reliability:${randomBytes(4).toString('hex')}:`,
  });
  const failMs: number[] = [];
  try {
    assert.deepEqual(await store.claim(newKey(), inAMinute()), { kind: 'claimed' });
    await server.stop();
    for (let i = 0; i < variant(3, 20); i++) {
      const started = performance.now();
      await assert.rejects(store.claim(newKey(), inAMinute()), unavailable);
      failMs.push(performance.now() - started);
    }
    const late = createRedisPaymentStore({ url: server.url });
    try {
      const started = performance.now();
      await assert.rejects(late.claim(newKey(), inAMinute()), unavailable);
      failMs.push(performance.now() - started);
    } finally {
      await late.close();
    }
  } finally {
    await store.close();
    await server.stop();
  }
  const worst = Math.max(...failMs);
  figure(
    '10 Redis outage',
    `${failMs.length} store calls during the outage, each failed with payment_store_unavailable, the slowest after ${ms(worst)}`,
  );
  timingTarget(worst < 2_000, `a store call failed after ${ms(worst)}`);
});
