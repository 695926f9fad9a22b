import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createRedisEntitlementStore } from '../../src/payment/signInWithX/entitlementStore.js';
import { startRedisServer, type RedisServer } from '../support/redisServer.js';

let server: RedisServer;
before(async () => {
  server = await startRedisServer();
});
after(async () => {
  await server?.stop();
});

const PAYER = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';
const open = (keyPrefix: string) => createRedisEntitlementStore({ url: server.url, keyPrefix });

test('entitlements outlive the instance that granted them and are seen by every instance', async () => {
  const keyPrefix = `test:${randomBytes(6).toString('hex')}:`;
  const granting = open(keyPrefix);
  const now = Date.now();
  await granting.grant(PAYER, 'fp', {
    network: 'eip155:84532',
    specimen: true,
    grantedAtMs: now,
    expiresAtMs: now + 60_000,
  });
  await granting.close(); // a restart
  const other = open(keyPrefix);
  try {
    assert.deepEqual(await other.find(PAYER.toLowerCase(), 'fp'), {
      network: 'eip155:84532',
      specimen: true,
      grantedAtMs: now,
      expiresAtMs: now + 60_000,
    });
    assert.equal(await other.find(PAYER, 'another request'), undefined);
  } finally {
    await other.close();
  }
});

test('an entitlement ends at its expiry', async () => {
  const store = open(`test:${randomBytes(6).toString('hex')}:`);
  try {
    const now = Date.now();
    await store.grant(PAYER, 'fp', {
      network: 'eip155:8453',
      specimen: false,
      grantedAtMs: now,
      expiresAtMs: now + 150,
    });
    assert.ok(await store.find(PAYER, 'fp'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await store.find(PAYER, 'fp'), undefined);
  } finally {
    await store.close();
  }
});

test('a nonce is taken once across instances, even when both try at the same time', async () => {
  const keyPrefix = `test:${randomBytes(6).toString('hex')}:`;
  const [a, b] = [open(keyPrefix), open(keyPrefix)];
  try {
    const expiresAtMs = Date.now() + 60_000;
    const taken = await Promise.all([a.useNonce('n1', expiresAtMs), b.useNonce('n1', expiresAtMs)]);
    assert.deepEqual(taken.sort(), [false, true]);
    assert.equal(await a.useNonce('n1', expiresAtMs), false);
    assert.equal(await b.useNonce('n2', expiresAtMs), true);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
