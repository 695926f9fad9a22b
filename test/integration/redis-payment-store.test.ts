import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { AppError } from '../../src/errors.js';
import { httpAnswerOf } from '../../src/http/errorAnswers.js';
import { createMemoryPaymentStore } from '../../src/payment/memoryPaymentStore.js';
import {
  authorizationKey,
  type ClaimOutcome,
  type PaidResult,
  type PaymentStore,
  type PendingResult,
} from '../../src/payment/paymentStore.js';
import { createRedisPaymentStore } from '../../src/payment/redisPaymentStore.js';
import { startRedisServer, type RedisServer } from '../support/redisServer.js';
import { USDC_ON_BASE } from '../../src/payment/usdc.js';

let server: RedisServer;
before(async () => {
  server = await startRedisServer();
});
after(async () => {
  await server?.stop();
});

/** Two service instances sharing payment state (for the memory store: one instance, asked twice). */
interface Instances {
  a: PaymentStore;
  b: PaymentStore;
  close(): Promise<void>;
}

const uniquePrefix = () => `test:${randomBytes(6).toString('hex')}:`;

/** Store options every implementation takes. */
interface StoreOptions {
  parkedLeaseMs?: number;
}

const implementations: { name: string; open(options?: StoreOptions): Instances }[] = [
  {
    name: 'memory payment store',
    open(options = {}) {
      const store = createMemoryPaymentStore(options);
      return { a: store, b: store, close: () => store.close() };
    },
  },
  {
    name: 'redis payment store',
    open(options = {}) {
      // Two connections = two instances; a fresh prefix keeps tests apart on one server.
      const keyPrefix = uniquePrefix();
      const a = createRedisPaymentStore({ url: server.url, keyPrefix, ...options });
      const b = createRedisPaymentStore({ url: server.url, keyPrefix, ...options });
      return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
    },
  },
];

const newKey = () =>
  authorizationKey(
    'eip155:8453',
    USDC_ON_BASE,
    '0x1111111111111111111111111111111111111111',
    `0x${randomBytes(32).toString('hex')}`,
  );
const inAMinute = () => Date.now() + 60_000;

const paidResult = (): PaidResult => ({
  fingerprint: randomBytes(32).toString('hex'),
  status: 200,
  contentType: 'application/pdf',
  headers: { 'Content-Disposition': 'inline; filename="invoice.pdf"', 'X-Page-Count': '3' },
  body: randomBytes(200 * 1024),
  receipt: { success: true, transaction: '0xabc', network: 'eip155:8453' },
  signatureHash: randomBytes(32).toString('hex'),
});

const pendingResult = (transaction = ''): PendingResult => ({
  fingerprint: randomBytes(32).toString('hex'),
  status: 200,
  contentType: 'application/pdf',
  headers: { 'Content-Disposition': 'inline; filename="invoice.pdf"', 'X-Page-Count': '3' },
  body: randomBytes(200 * 1024),
  transaction,
  signatureHash: randomBytes(32).toString('hex'),
});

function assertParked(outcome: ClaimOutcome, expected: PendingResult) {
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

function assertDone(outcome: ClaimOutcome, expected: PaidResult) {
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
async function claimWhenFree(
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

// The PaymentStore contract, run against every implementation so they stay equivalent.
const behaviours: { name: string; options?: StoreOptions; run(instances: Instances): Promise<void> }[] = [
  {
    name: 'a claim makes every other claimer busy until it is released',
    async run({ a, b }) {
      const key = newKey();
      assert.deepEqual(await a.claim(key, inAMinute()), { kind: 'claimed' });
      assert.deepEqual(await b.claim(key, inAMinute()), { kind: 'busy' });
      assert.deepEqual(await a.claim(key, inAMinute()), { kind: 'busy' });
      await a.release(key);
      assert.deepEqual(await b.claim(key, inAMinute()), { kind: 'claimed' });
      assert.deepEqual(await a.claim(key, inAMinute()), { kind: 'busy' });
    },
  },
  {
    name: 'a completed result is done, byte for byte, for every claimer',
    async run({ a, b }) {
      const key = newKey();
      const result = paidResult();
      assert.deepEqual(await a.claim(key, inAMinute()), { kind: 'claimed' });
      await a.complete(key, result, inAMinute());
      for (const store of [a, b, a, b]) assertDone(await store.claim(key, inAMinute()), result);
    },
  },
  {
    name: 'release after complete keeps the result',
    async run({ a, b }) {
      const key = newKey();
      const result = paidResult();
      await a.claim(key, inAMinute());
      await a.complete(key, result, inAMinute());
      await a.release(key);
      await b.release(key);
      assertDone(await b.claim(key, inAMinute()), result);
    },
  },
  {
    name: 'releasing a key nobody holds does nothing',
    async run({ a, b }) {
      const key = newKey();
      await a.release(key);
      assert.deepEqual(await b.claim(key, inAMinute()), { kind: 'claimed' });
    },
  },
  {
    name: 'authorizations are independent of each other',
    async run({ a, b }) {
      const [first, second] = [newKey(), newKey()];
      assert.deepEqual(await a.claim(first, inAMinute()), { kind: 'claimed' });
      assert.deepEqual(await b.claim(second, inAMinute()), { kind: 'claimed' });
      await a.complete(first, paidResult(), inAMinute());
      assert.deepEqual(await a.claim(second, inAMinute()), { kind: 'busy' });
    },
  },
  {
    name: 'a claim expires at expiresAtMs: claimable again after ~300 ms',
    async run({ a, b }) {
      const key = newKey();
      assert.deepEqual(await a.claim(key, Date.now() + 300), { kind: 'claimed' });
      const seen = await claimWhenFree(b, key, inAMinute(), 2_000);
      assert.equal(seen[0]?.kind, 'busy', 'held before it expires');
    },
  },
  {
    name: 'a result expires at expiresAtMs too',
    async run({ a, b }) {
      const key = newKey();
      const result = paidResult();
      await a.claim(key, inAMinute());
      await a.complete(key, result, Date.now() + 300);
      assertDone(await b.claim(key, inAMinute()), result);
      await claimWhenFree(b, key, inAMinute(), 2_000);
    },
  },
  {
    name: 'a claim whose expiry is already past holds nothing',
    async run({ a, b }) {
      const key = newKey();
      assert.deepEqual(await a.claim(key, Date.now() - 1_000), { kind: 'claimed' });
      await sleep(10);
      assert.deepEqual(await b.claim(key, inAMinute()), { kind: 'claimed' });
    },
  },
  {
    name: '20 concurrent claims from two instances: exactly one is claimed',
    async run({ a, b }) {
      const key = newKey();
      const expiresAtMs = inAMinute();
      const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).claim(key, expiresAtMs)));
      const kinds = outcomes.map((outcome) => outcome.kind);
      assert.equal(kinds.filter((kind) => kind === 'claimed').length, 1);
      assert.equal(kinds.filter((kind) => kind === 'busy').length, 19);
    },
  },
  {
    name: 'a parked settlement goes to one re-sender at a time, byte for byte',
    async run({ a, b }) {
      const key = newKey();
      const pending = pendingResult('0x' + 'ab'.repeat(32));
      assert.deepEqual(await a.claim(key, inAMinute()), { kind: 'claimed' });
      await a.park(key, pending, inAMinute());
      assertParked(await b.claim(key, inAMinute()), pending);
      assert.deepEqual(await a.claim(key, inAMinute()), { kind: 'busy' }, 'held by the first re-sender');
      assert.deepEqual(await b.claim(key, inAMinute()), { kind: 'busy' });
    },
  },
  {
    name: 'parking again (still unknown) hands it to the next re-sender, with the newer details',
    async run({ a, b }) {
      const key = newKey();
      const first = pendingResult();
      await a.claim(key, inAMinute());
      await a.park(key, first, inAMinute());
      assertParked(await b.claim(key, inAMinute()), first);
      const newer = { ...first, transaction: '0x' + 'cd'.repeat(32) };
      await b.park(key, newer, inAMinute());
      assertParked(await a.claim(key, inAMinute()), newer);
    },
  },
  {
    name: 'a collected settlement becomes a result for every later re-send',
    async run({ a, b }) {
      const key = newKey();
      const pending = pendingResult();
      await a.claim(key, inAMinute());
      await a.park(key, pending, inAMinute());
      assertParked(await b.claim(key, inAMinute()), pending);
      const result = { ...paidResult(), fingerprint: pending.fingerprint, body: pending.body };
      await b.complete(key, result, inAMinute());
      for (const store of [a, b]) assertDone(await store.claim(key, inAMinute()), result);
    },
  },
  {
    name: 'releasing a parked settlement (it failed for good) frees the authorization',
    async run({ a, b }) {
      const key = newKey();
      await a.claim(key, inAMinute());
      await a.park(key, pendingResult(), inAMinute());
      assert.equal((await b.claim(key, inAMinute())).kind, 'parked');
      await b.release(key);
      assert.deepEqual(await a.claim(key, inAMinute()), { kind: 'claimed' });
    },
  },
  {
    name: 'park never replaces a paid result',
    async run({ a, b }) {
      const key = newKey();
      const result = paidResult();
      await a.claim(key, inAMinute());
      await a.complete(key, result, inAMinute());
      await b.park(key, pendingResult(), inAMinute());
      assertDone(await b.claim(key, inAMinute()), result);
    },
  },
  {
    name: 'a re-sender that vanished holds a parked settlement only for the lease (300 ms here)',
    options: { parkedLeaseMs: 300 },
    async run({ a, b }) {
      const key = newKey();
      const pending = pendingResult();
      await a.claim(key, inAMinute());
      await a.park(key, pending, inAMinute());
      assertParked(await a.claim(key, inAMinute()), pending); // ...and never comes back
      const deadline = Date.now() + 2_000;
      let outcome = await b.claim(key, inAMinute());
      assert.equal(outcome.kind, 'busy', 'held during the lease');
      while (outcome.kind === 'busy' && Date.now() < deadline) {
        await sleep(50);
        outcome = await b.claim(key, inAMinute());
      }
      assertParked(outcome, pending);
    },
  },
  {
    name: 'work parked held (a settlement about to be attempted) is busy for re-senders during the lease, then theirs to collect',
    options: { parkedLeaseMs: 300 },
    async run({ a, b }) {
      const key = newKey();
      const pending = pendingResult();
      await a.claim(key, inAMinute());
      await a.park(key, pending, inAMinute(), { hold: true }); // ...and the settler dies
      const deadline = Date.now() + 2_000;
      let outcome = await b.claim(key, inAMinute());
      assert.equal(outcome.kind, 'busy', 'held by the settler during the lease');
      while (outcome.kind === 'busy' && Date.now() < deadline) {
        await sleep(50);
        outcome = await b.claim(key, inAMinute());
      }
      assertParked(outcome, pending);
    },
  },
  {
    name: '20 concurrent re-sends of a parked settlement from two instances: exactly one gets it',
    async run({ a, b }) {
      const key = newKey();
      await a.claim(key, inAMinute());
      await a.park(key, pendingResult(), inAMinute());
      const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).claim(key, inAMinute())));
      const kinds = outcomes.map((outcome) => outcome.kind);
      assert.equal(kinds.filter((kind) => kind === 'parked').length, 1);
      assert.equal(kinds.filter((kind) => kind === 'busy').length, 19);
    },
  },
  {
    name: 'a parked settlement expires at expiresAtMs, like a claim',
    async run({ a, b }) {
      const key = newKey();
      await a.claim(key, inAMinute());
      await a.park(key, pendingResult(), Date.now() + 300);
      await claimWhenFree(b, key, inAMinute(), 2_000);
    },
  },
];

for (const implementation of implementations) {
  describe(implementation.name, () => {
    for (const behaviour of behaviours) {
      test(behaviour.name, async () => {
        const instances = implementation.open(behaviour.options);
        try {
          await behaviour.run(instances);
        } finally {
          await instances.close();
        }
      });
    }
  });
}

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
        await assert.rejects(
          store.claim(key, inAMinute()),
          (error) => error instanceof AppError && error.code === 'payment_store_unavailable',
        );
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
