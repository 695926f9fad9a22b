// The PaymentStore contract (src/payment/paymentStore.ts), run against every implementation (memory,
// Redis) so that they stay equivalent. Redis's own behaviour (layout, outages): redis-payment-store.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMemoryPaymentStore } from '../../src/payment/memoryPaymentStore.js';
import type { PaymentStore } from '../../src/payment/paymentStore.js';
import { createRedisPaymentStore } from '../../src/payment/redisPaymentStore.js';
import {
  assertDone,
  assertParked,
  claimWhenFree,
  inAMinute,
  newKey,
  paidResult,
  pendingResult,
  uniquePrefix,
  useRedisServer,
} from '../support/paymentStoreFixtures.js';

const server = useRedisServer();

/** Two service instances sharing payment state (for the memory store: one instance, asked twice). */
interface Instances {
  a: PaymentStore;
  b: PaymentStore;
  close(): Promise<void>;
}

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
