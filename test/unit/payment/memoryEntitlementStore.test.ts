import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryEntitlementStore } from '../../../src/payment/signInWithX/entitlementStore.js';

// The Redis store is tested against a real Redis with the same expectations (test/integration/entitlement-store.test.ts).
const PAYER = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';

test('an entitlement is found for its payer (any case) and request until it expires, and for nobody else', async () => {
  let now = 1_000_000;
  const store = createMemoryEntitlementStore({ now: () => now });
  await store.grant(PAYER, 'fingerprint-a', {
    network: 'eip155:8453',
    specimen: false,
    grantedAtMs: now,
    expiresAtMs: now + 1000,
  });
  assert.equal((await store.find(PAYER.toLowerCase(), 'fingerprint-a'))?.network, 'eip155:8453');
  assert.equal(await store.find(PAYER, 'fingerprint-b'), undefined);
  assert.equal(await store.find('0x0000000000000000000000000000000000000001', 'fingerprint-a'), undefined);
  now += 1000;
  assert.equal(await store.find(PAYER, 'fingerprint-a'), undefined);
});

test('a nonce is taken once until it expires', async () => {
  let now = 0;
  const store = createMemoryEntitlementStore({ now: () => now });
  assert.equal(await store.useNonce('n1', 500), true);
  assert.equal(await store.useNonce('n1', 500), false);
  assert.equal(await store.useNonce('n2', 500), true);
  now = 600;
  assert.equal(await store.useNonce('n1', 1100), true);
  assert.equal(await store.useNonce('x'.repeat(201), 1100), false);
});
