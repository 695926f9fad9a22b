// The Redis payment store's own behaviour: its connection, its key layout, prefixes, a hung or
// stopped Redis. The contract every store keeps: payment-store-contract.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { AppError } from '../../src/errors.js';
import { httpAnswerOf } from '../../src/http/errorAnswers.js';
import type { PaymentStore } from '../../src/payment/paymentStore.js';
import { createRedisPaymentStore } from '../../src/payment/redisPaymentStore.js';
import {
  claimWhenFree,
  inAMinute,
  newKey,
  paidResult,
  pendingResult,
  storeUnavailable,
  uniquePrefix,
  useRedisServer,
} from '../support/paymentStoreFixtures.js';
import { startRedisServer } from '../support/redisServer.js';

const server = useRedisServer();

describe('redis payment store: Redis itself', () => {
  test('a store used right after creation waits for its connection', async () => {
    const store = createRedisPaymentStore({ url: server.url, keyPrefix: uniquePrefix() });
    try {
      assert.deepEqual(await store.claim(newKey(), inAMinute()), { kind: 'claimed' });
    } finally {
      await store.close();
    }
  });

  test('layout: one key per authorization, a claim string then a result hash, both expiring with the authorization', async () => {
    const keyPrefix = uniquePrefix();
    const store = createRedisPaymentStore({ url: server.url, keyPrefix });
    const raw = new Redis(server.url);
    try {
      const key = newKey();
      const expiresAtMs = Date.now() + 30_000;
      await store.claim(key, expiresAtMs);
      assert.equal(await raw.type(`${keyPrefix}${key}`), 'string');
      const claim = JSON.parse((await raw.get(`${keyPrefix}${key}`)) ?? 'null');
      assert.match(claim.by, /:\d+$/);
      const claimTtl = await raw.pttl(`${keyPrefix}${key}`);
      assert.ok(claimTtl > 25_000 && claimTtl <= 30_000, `claim TTL ${claimTtl} ms`);

      const result = paidResult();
      await store.complete(key, result, expiresAtMs);
      assert.equal(await raw.type(`${keyPrefix}${key}`), 'hash');
      assert.ok((await raw.hgetBuffer(`${keyPrefix}${key}`, 'body'))?.equals(result.body));
      const resultTtl = await raw.pttl(`${keyPrefix}${key}`);
      assert.ok(resultTtl > 25_000 && resultTtl <= 30_000, `result TTL ${resultTtl} ms`);
      assert.deepEqual(await raw.keys(`${keyPrefix}*`), [`${keyPrefix}${key}`]);

      // A parked settlement: a hash with a state, held by one re-sender until heldUntil (Redis time).
      const parkedKey = newKey();
      await store.claim(parkedKey, expiresAtMs);
      await store.park(parkedKey, pendingResult(), expiresAtMs);
      assert.equal(await raw.type(`${keyPrefix}${parkedKey}`), 'hash');
      assert.equal(await raw.hget(`${keyPrefix}${parkedKey}`, 'state'), 'parked');
      assert.equal(await raw.hget(`${keyPrefix}${parkedKey}`, 'heldUntil'), '0');
      const parkedTtl = await raw.pttl(`${keyPrefix}${parkedKey}`);
      assert.ok(parkedTtl > 25_000 && parkedTtl <= 30_000, `parked TTL ${parkedTtl} ms`);
      await store.claim(parkedKey, expiresAtMs);
      const [seconds = 0, micros = 0] = (await raw.time()).map(Number);
      const heldUntil = Number(await raw.hget(`${keyPrefix}${parkedKey}`, 'heldUntil'));
      const lease = heldUntil - (Number(seconds) * 1000 + Math.floor(Number(micros) / 1000));
      assert.ok(lease > 55_000 && lease <= 60_000, `lease ${lease} ms`);
    } finally {
      raw.disconnect();
      await store.close();
    }
  });

  test('an entry of the older layout (no signature, no head) is refused as incomplete, never handed out', async () => {
    const keyPrefix = uniquePrefix();
    const store = createRedisPaymentStore({ url: server.url, keyPrefix });
    const raw = new Redis(server.url);
    try {
      const key = newKey();
      const receipt = JSON.stringify({ success: true, transaction: '0x1', network: 'eip155:8453' });
      const fields = { fingerprint: 'f', contentType: 'application/pdf', receipt, body: 'PDF' };
      await raw.hset(`${keyPrefix}${key}`, fields);
      await assert.rejects(store.claim(key, inAMinute()));
      const parkedKey = newKey();
      await raw.hset(`${keyPrefix}${parkedKey}`, { state: 'parked', heldUntil: '0', ...fields, transaction: '0x1' });
      await assert.rejects(store.claim(parkedKey, inAMinute()));
      // With every field, as complete() writes it, the same entry is a paid result.
      await raw.hset(`${keyPrefix}${key}`, { signature: 'hash', head: JSON.stringify({ status: 200, headers: {} }) });
      const outcome = await store.claim(key, inAMinute());
      assert.equal(outcome.kind, 'done');
    } finally {
      raw.disconnect();
      await store.close();
    }
  });

  test('keyPrefix separates services sharing one Redis', async () => {
    const one = createRedisPaymentStore({ url: server.url, keyPrefix: uniquePrefix() });
    const other = createRedisPaymentStore({ url: server.url, keyPrefix: uniquePrefix() });
    try {
      const key = newKey();
      assert.deepEqual(await one.claim(key, inAMinute()), { kind: 'claimed' });
      assert.deepEqual(await other.claim(key, inAMinute()), { kind: 'claimed' });
    } finally {
      await Promise.all([one.close(), other.close()]);
    }
  });

  test('a claim that timed out (Redis hung) does not keep the authorization locked once Redis answers again', async () => {
    const hungServer = await startRedisServer();
    const raw = new Redis(hungServer.url);
    const store = createRedisPaymentStore({ url: hungServer.url, keyPrefix: uniquePrefix(), commandTimeoutMs: 300 });
    try {
      const pid = Number(/process_id:(\d+)/.exec(await raw.info('server'))?.[1]);
      assert.ok(pid > 0);
      assert.deepEqual(await store.claim(newKey(), inAMinute()), { kind: 'claimed' });
      const key = newKey();
      process.kill(pid, 'SIGSTOP'); // the claim reaches Redis, its reply doesn't come back in time
      try {
        await assert.rejects(store.claim(key, inAMinute()), storeUnavailable);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      // Redis runs the late claim after all; the store withdraws it, so a retry can proceed.
      await claimWhenFree(store, key, inAMinute(), 2_000);
    } finally {
      raw.disconnect();
      await store.close();
      await hungServer.stop();
    }
  });

  // How fast calls fail during an outage is a timing target of the long run (test/reliability/paymentStore.test.ts).
  test('outage: calls fail with payment_store_unavailable (503), and the store recovers by itself when Redis is back', async () => {
    const outageServer = await startRedisServer();
    const lines: string[] = [];
    const keyPrefix = uniquePrefix();
    const store = createRedisPaymentStore({ url: outageServer.url, keyPrefix, log: (line) => lines.push(line) });
    let lateStore: PaymentStore | undefined;
    try {
      assert.deepEqual(await store.claim(newKey(), inAMinute()), { kind: 'claimed' });

      await outageServer.stop();
      const isUnavailable = (error: unknown) => {
        assert.ok(error instanceof AppError, String(error));
        assert.equal(error.code, 'payment_store_unavailable');
        assert.deepEqual(httpAnswerOf(error), { status: 503, headers: { 'Retry-After': '2' } });
        return true;
      };
      const key = newKey();
      await assert.rejects(store.claim(key, inAMinute()), isUnavailable);
      await assert.rejects(store.release(key), isUnavailable);
      await assert.rejects(store.complete(key, paidResult(), inAMinute()), isUnavailable);
      await assert.rejects(store.park(key, pendingResult(), inAMinute()), isUnavailable);
      // An instance that starts during the outage fails too, rather than waiting for Redis.
      lateStore = createRedisPaymentStore({ url: outageServer.url, keyPrefix });
      await assert.rejects(lateStore.claim(key, inAMinute()), isUnavailable);

      await outageServer.restart();
      const recovered = Date.now();
      const recoveredWithin = async (candidate: PaymentStore, candidateKey: string) => {
        for (;;) {
          try {
            return await candidate.claim(candidateKey, inAMinute());
          } catch (error) {
            isUnavailable(error);
            assert.ok(Date.now() - recovered < 10_000, 'still unavailable 10 s after Redis came back');
            await sleep(100);
          }
        }
      };
      assert.deepEqual(await recoveredWithin(store, key), { kind: 'claimed' });
      assert.deepEqual(await recoveredWithin(lateStore, key), { kind: 'busy' });
      assert.ok(
        lines.some((line) => /lost the connection|unavailable/.test(line)),
        lines.join('\n'),
      );
      assert.ok(
        lines.some((line) => /is back/.test(line)),
        lines.join('\n'),
      );
    } finally {
      await Promise.all([store.close(), lateStore?.close()]);
      await outageServer.stop();
    }
  });
});
