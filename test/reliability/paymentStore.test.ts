import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRedisPaymentStore } from '../../src/payment/redisPaymentStore.js';
import { startRedisServer } from '../support/redisServer.js';
import { figure, ms, timingTarget, variant } from './harness.js';
import { inAMinute, newKey, storeUnavailable, uniquePrefix } from '../support/paymentStoreFixtures.js';

/**
 * 10 Redis outage: a paid request must not hang on a Redis that is gone. Target: every store call
 * fails with payment_store_unavailable within 2 s, for a store that was connected and for one that
 * starts during the outage.
 */
test('Redis outage: store calls fail within 2 s', { timeout: 120_000 }, async () => {
  const server = await startRedisServer();
  const store = createRedisPaymentStore({
    url: server.url,
    keyPrefix: uniquePrefix(),
  });
  const failMs: number[] = [];
  try {
    assert.deepEqual(await store.claim(newKey(), inAMinute()), { kind: 'claimed' });
    await server.stop();
    for (let i = 0; i < variant(3, 20); i++) {
      const started = performance.now();
      await assert.rejects(store.claim(newKey(), inAMinute()), storeUnavailable);
      failMs.push(performance.now() - started);
    }
    const late = createRedisPaymentStore({ url: server.url });
    try {
      const started = performance.now();
      await assert.rejects(late.claim(newKey(), inAMinute()), storeUnavailable);
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
