// Rate limits: token buckets per client address on every route but the probes, and per
// payer on paid routes; 429 rate_limited in the standard error body with Retry-After and the IETF
// RateLimit-Policy / RateLimit headers; one limit across instances that share Redis.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import { clientAddressOf } from '../../src/http/rateLimit/clientAddress.js';
import { createRedisBucketStore } from '../../src/http/rateLimit/redisBucketStore.js';
import { takeToken } from '../../src/http/rateLimit/tokenBucket.js';
import { startRedisServer, type RedisServer } from '../support/redisServer.js';
import { postJson, startTestApp, type TestApp } from '../support/testApp.js';

const PAYMENT_TERMS_EXAMPLE = { invoice_date: '2026-11-02', terms: '2/10 Net 30', amount: 10803.74, currency: 'USD', as_of: '2026-11-09' };
// The free route computes on the event loop here: a worker thread's start (100 ms, seconds on a
// loaded machine) inside a burst would let the bucket refill before the burst is spent.
const ON_THE_EVENT_LOOP = { COMPUTE_THREADS: '0' };

const free = (app: TestApp, headers: Record<string, string> = {}) => postJson(`${app.url}/v1/payment-terms`, PAYMENT_TERMS_EXAMPLE, headers);

test('token bucket: a burst, then one token per 1/perSecond', () => {
  const policy = { name: 'client', burst: 3, perSecond: 2 };
  let state;
  const allowed: boolean[] = [];
  for (let i = 0; i < 4; i++) {
    const step = takeToken(state, policy, 1_000);
    state = step.state;
    allowed.push(step.take.allowed);
  }
  assert.deepEqual(allowed, [true, true, true, false]);
  assert.equal(takeToken(state, policy, 1_000).take.retryAfterMs, 500);
  assert.equal(takeToken(state, policy, 1_499).take.allowed, false);
  const later = takeToken(state, policy, 1_500);
  assert.equal(later.take.allowed, true);
  assert.equal(takeToken(later.state, policy, 1_500).take.resetMs, 1_500, 'full again 3 tokens × 500 ms later');
});

test('client address: the socket unless proxies are trusted; the hops-th X-Forwarded-For entry from the right; IPv6 per /64', () => {
  assert.equal(clientAddressOf('10.0.0.2', '1.2.3.4', 0), '10.0.0.2');
  assert.equal(clientAddressOf('10.0.0.2', 'spoofed, 1.2.3.4', 1), '1.2.3.4');
  assert.equal(clientAddressOf('10.0.0.2', 'spoofed, 1.2.3.4, 10.0.0.9', 2), '1.2.3.4');
  assert.equal(clientAddressOf('10.0.0.2', undefined, 1), '10.0.0.2');
  assert.equal(clientAddressOf('::ffff:127.0.0.1', undefined, 0), '127.0.0.1');
  assert.equal(clientAddressOf('2001:db8:1:2:a::1', undefined, 0), '2001:db8:1:2::/64');
  assert.equal(clientAddressOf('2001:db8:1:2:ffff::9', undefined, 0), '2001:db8:1:2::/64');
  assert.equal(clientAddressOf('2001:db8::1', undefined, 0), '2001:db8:0:0::/64');
});

describe('per client address', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ ...ON_THE_EVENT_LOOP, RATE_LIMIT_CLIENT_BURST: '5', RATE_LIMIT_CLIENT_PER_SECOND: '1', TRUST_PROXY_HOPS: '1' });
  });
  after(() => app.close());

  test('a burst goes through with RateLimit headers, then 429 rate_limited with Retry-After; probes keep answering', async () => {
    const client = { 'x-forwarded-for': '198.51.100.1' };
    for (let i = 0; i < 5; i++) {
      const response = await free(app, client);
      assert.equal(response.status, 200, `request ${i + 1}`);
      assert.equal(response.headers.get('ratelimit-policy'), '"client";q=5;w=5');
      assert.match(response.headers.get('ratelimit') ?? '', new RegExp(`^"client";r=${4 - i};t=\\d+$`));
    }
    const limited = await free(app, client);
    assert.equal(limited.status, 429);
    assert.deepEqual(Object.keys(((await limited.json()) as { error: object }).error), ['code', 'message']);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.match(limited.headers.get('ratelimit') ?? '', /^"client";r=0;t=\d+$/);
    // Every route counts (GET documents too); the probes don't.
    assert.equal((await fetch(`${app.url}/openapi.json`, { headers: client })).status, 429);
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      const probe = await fetch(`${app.url}${path}`, { headers: client });
      assert.notEqual(probe.status, 429, path);
      assert.equal(probe.headers.get('ratelimit'), null, path);
    }
    // Another client (per X-Forwarded-For, one trusted proxy) has its own bucket.
    assert.equal((await free(app, { 'x-forwarded-for': '198.51.100.2' })).status, 200);
  });
});

describe('per payer', () => {
  let app: TestApp;
  before(async () => {
    // The paid route without payments configured still decodes the header for the payer limit.
    app = await startTestApp({ ...ON_THE_EVENT_LOOP, RATE_LIMIT_CLIENT_BURST: '1000', RATE_LIMIT_PAYER_BURST: '3', RATE_LIMIT_PAYER_PER_SECOND: '1', TRUST_PROXY_HOPS: '1', PRICES: 'v1_payment_terms=0.01' });
  });
  after(() => app.close());

  const headerFrom = (from: string) =>
    encodePaymentSignatureHeader({
      x402Version: 2,
      accepted: { scheme: 'exact', network: 'eip155:8453', amount: '10000', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', payTo: '0x1111111111111111111111111111111111111111', maxTimeoutSeconds: 300, extra: {} },
      payload: { signature: `0x${'ab'.repeat(200)}`, authorization: { from, to: '0x1111111111111111111111111111111111111111', value: '10000', validAfter: '0', validBefore: '99999999999', nonce: `0x${randomBytes(32).toString('hex')}` } },
    } as never);

  test('one payer from many addresses is limited as one; another payer is not', async () => {
    const payer = `0x${randomBytes(20).toString('hex')}`;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await free(app, { 'x-forwarded-for': `203.0.113.${i}`, 'PAYMENT-SIGNATURE': headerFrom(payer) });
      statuses.push(response.status);
      if (i === 3) {
        assert.match(((await response.json()) as { error: { message: string } }).error.message, /this payer/);
        assert.match(response.headers.get('ratelimit-policy') ?? '', /"payer";q=3;w=3/);
      }
    }
    assert.equal(statuses.filter((status) => status === 429).length, 1, statuses.join(' '));
    assert.equal(statuses[3], 429);
    const other = await free(app, { 'x-forwarded-for': '203.0.113.9', 'PAYMENT-SIGNATURE': headerFrom(`0x${randomBytes(20).toString('hex')}`) });
    assert.notEqual(other.status, 429);
  });
});

describe('two instances on one Redis enforce one limit', () => {
  let redis: RedisServer;
  const apps: TestApp[] = [];
  const stores: ReturnType<typeof createRedisBucketStore>[] = [];
  before(async () => {
    redis = await startRedisServer();
    for (let i = 0; i < 2; i++) {
      const store = createRedisBucketStore({ url: redis.url });
      stores.push(store);
      apps.push(await startTestApp({ ...ON_THE_EVENT_LOOP, RATE_LIMIT_CLIENT_BURST: '6', RATE_LIMIT_CLIENT_PER_SECOND: '1', TRUST_PROXY_HOPS: '1' }, { buckets: store }));
    }
  });
  after(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await Promise.all(stores.map((store) => store.close()));
    await redis?.stop();
  });

  test('6 requests spread over both instances, then 429 on either', async () => {
    const client = { 'x-forwarded-for': '192.0.2.77' };
    for (let i = 0; i < 6; i++) assert.equal((await free(apps[i % 2]!, client)).status, 200, `request ${i + 1}`);
    assert.equal((await free(apps[0]!, client)).status, 429);
    assert.equal((await free(apps[1]!, client)).status, 429);
  });

  test('Redis down: limits fail open, the routes keep answering', async () => {
    await redis.stop();
    assert.equal((await free(apps[0]!, { 'x-forwarded-for': '192.0.2.78' })).status, 200);
  });
});
