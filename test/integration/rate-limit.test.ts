// Rate limits (issue 19): token buckets per client address on every route but the probes, and per
// payer on paid routes; 429 rate_limited in the standard error body with Retry-After and the IETF
// RateLimit-Policy / RateLimit headers; one limit across instances that share Redis.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clientAddressOf } from '../../src/http/rateLimit/clientAddress.js';
import { createRedisBucketStore } from '../../src/http/rateLimit/redisBucketStore.js';
import { takeToken } from '../../src/http/rateLimit/tokenBucket.js';
import { startRedisServer, type RedisServer } from '../support/redisServer.js';
import { postJson, startTestApp, type TestApp } from '../support/testApp.js';

const PAYMENT_TERMS_EXAMPLE = {
  invoice_date: '2026-11-02',
  terms: '2/10 Net 30',
  amount: 10803.74,
  currency: 'USD',
  as_of: '2026-11-09',
};
const free = (app: TestApp, headers: Record<string, string> = {}) =>
  postJson(`${app.url}/v1/payment-terms`, PAYMENT_TERMS_EXAMPLE, headers);

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
    // COMPUTE_THREADS=0: the body is parsed inline, so no worker's start-up (a second under tsx)
    // lets a token refill mid-burst; the limiter is under test here, not the pool.
    app = await startTestApp({
      RATE_LIMIT_CLIENT_BURST: '5',
      RATE_LIMIT_CLIENT_PER_SECOND: '1',
      TRUST_PROXY_HOPS: '1',
      COMPUTE_THREADS: '0',
    });
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

// The per-payer limit (taken only for a proven payer, or per address for a smart account's
// unprovable signature) is tested with real signatures in rate-limit-payer-drain.test.ts.

describe('two instances on one Redis enforce one limit', () => {
  let redis: RedisServer;
  const apps: TestApp[] = [];
  const stores: ReturnType<typeof createRedisBucketStore>[] = [];
  before(async () => {
    redis = await startRedisServer();
    for (let i = 0; i < 2; i++) {
      const store = createRedisBucketStore({ url: redis.url });
      stores.push(store);
      apps.push(
        await startTestApp(
          {
            RATE_LIMIT_CLIENT_BURST: '6',
            RATE_LIMIT_CLIENT_PER_SECOND: '1',
            TRUST_PROXY_HOPS: '1',
            COMPUTE_THREADS: '0',
          },
          { buckets: store },
        ),
      );
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
