// Two service instances sharing one real redis-server, one real local chain and facilitator, and
// one real renderer: a signature sent to both at once is settled exactly once, and a Redis outage
// makes paid requests 503 (never free, never double-charged) until Redis returns.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { createRedisPaymentStore } from '../../src/payment/redisPaymentStore.js';
import type { PaymentStore } from '../../src/payment/paymentStore.js';
import { startFaultyFacilitator } from '../support/faultyFacilitator.js';
import { startPaidService } from '../support/paidService.js';
import { fileWorld } from '../support/sharedWorld.js';
import { startRedisServer, type RedisServer } from '../support/redisServer.js';
import { postJson } from '../support/testApp.js';
import { challengeOf, signerFor } from '../support/x402Buyer.js';

let world: Awaited<ReturnType<typeof fileWorld>>;
let redis: RedisServer;
const stores: PaymentStore[] = [];
const instances: Awaited<ReturnType<typeof startPaidService>>[] = [];

before(
  async () => {
    redis = await startRedisServer();
    world = await fileWorld();
    for (let i = 0; i < 2; i++) {
      const store = createRedisPaymentStore({ url: redis.url, commandTimeoutMs: 1000 });
      stores.push(store);
      instances.push(await startPaidService({ net: world.net, renderer: world.renderer, store }));
    }
  },
  { timeout: 90_000 },
);

after(
  async () => {
    for (const instance of instances) await instance.close();
    for (const store of stores) await store.close();
    await world?.release();
    await redis?.stop();
  },
  { timeout: 30_000 },
);

async function signedHeader(buyerIndex: number): Promise<string> {
  return (await signerFor(world.net.buyers[buyerIndex]!, await challengeOf(instances[0]!.url))()).header;
}

test('one signature sent to both instances at once settles exactly once', async () => {
  const buyer = world.net.buyers[0]!;
  const before = await world.net.balanceOf(buyer.address);
  const header = await signedHeader(0);
  const responses = await Promise.all(
    [0, 1, 0, 1].map((i) =>
      postJson(`${instances[i]!.url}/v1/invoice.pdf`, EXAMPLE_INVOICE, { 'PAYMENT-SIGNATURE': header }),
    ),
  );
  const statuses = responses.map((response) => response.status);
  assert.ok(
    statuses.every((status) => status === 200 || status === 409),
    statuses.join(','),
  );
  const pdfs = await Promise.all(
    responses.filter((r) => r.status === 200).map(async (r) => Buffer.from(await r.arrayBuffer())),
  );
  for (const pdf of pdfs) assert.deepEqual(pdf, pdfs[0]);
  assert.equal(instances[0]!.renders() + instances[1]!.renders(), 1, 'one render across both instances');
  assert.equal(await world.net.balanceOf(buyer.address), before - 20000n, 'one transfer');
  // A later re-send to the other instance gets the stored result, not a second charge.
  const again = await postJson(`${instances[1]!.url}/v1/invoice.pdf`, EXAMPLE_INVOICE, { 'PAYMENT-SIGNATURE': header });
  assert.equal(again.status, 200);
  assert.deepEqual(Buffer.from(await again.arrayBuffer()), pdfs[0]);
  assert.equal(await world.net.balanceOf(buyer.address), before - 20000n);
});

test('a settlement whose answer was lost on one instance is collected by re-sending to the other', async () => {
  // Instance C's facilitator settles on chain, then the answer is cut: C parks the PDF in Redis.
  const proxy = await startFaultyFacilitator(world.net.facilitatorUrl);
  const store = createRedisPaymentStore({ url: redis.url, commandTimeoutMs: 1000 });
  const lossy = await startPaidService({ net: world.net, renderer: world.renderer, store, facilitatorUrl: proxy.url });
  try {
    proxy.fault('forward-then-drop', 'settle');
    const buyer = world.net.buyers[2]!;
    const before = await world.net.balanceOf(buyer.address);
    const header = await signedHeader(2);
    const lost = await postJson(`${lossy.url}/v1/invoice.pdf`, EXAMPLE_INVOICE, { 'PAYMENT-SIGNATURE': header });
    assert.equal(lost.status, 502);
    assert.equal((await lost.json()).error.code, 'settlement_unknown');
    assert.equal(await world.net.balanceOf(buyer.address), before - 20000n, 'the transfer did happen');

    const rendersBefore = instances[1]!.renders();
    const collected = await postJson(`${instances[1]!.url}/v1/invoice.pdf`, EXAMPLE_INVOICE, {
      'PAYMENT-SIGNATURE': header,
    });
    assert.equal(collected.status, 200);
    assert.equal(
      Buffer.from(await collected.arrayBuffer())
        .subarray(0, 5)
        .toString(),
      '%PDF-',
    );
    assert.equal(decodePaymentResponseHeader(collected.headers.get('PAYMENT-RESPONSE')!).success, true);
    assert.equal(instances[1]!.renders(), rendersBefore, 'the PDF parked by the other instance, not a new render');
    assert.equal(await world.net.balanceOf(buyer.address), before - 20000n, 'one transfer');
  } finally {
    await lossy.close();
    await store.close();
    await proxy.close();
  }
});

test('a Redis outage makes paid requests 503 without charging, and they recover when Redis returns', async () => {
  const buyer = world.net.buyers[1]!;
  const header = await signedHeader(1);
  const before = await world.net.balanceOf(buyer.address);
  await redis.stop();
  const during = await postJson(`${instances[0]!.url}/v1/invoice.pdf`, EXAMPLE_INVOICE, {
    'PAYMENT-SIGNATURE': header,
  });
  assert.equal(during.status, 503);
  assert.equal((await during.json()).error.code, 'payment_store_unavailable');
  assert.ok(during.headers.get('retry-after'));
  assert.equal(await world.net.balanceOf(buyer.address), before);
  // Free routes keep working.
  assert.equal((await postJson(`${instances[0]!.url}/v1/invoice/validate`, EXAMPLE_INVOICE)).status, 200);

  await redis.restart();
  let status = 0;
  for (let i = 0; i < 50 && status !== 200; i++) {
    const response = await postJson(`${instances[0]!.url}/v1/invoice.pdf`, EXAMPLE_INVOICE, {
      'PAYMENT-SIGNATURE': header,
    });
    status = response.status;
    await response.arrayBuffer();
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.equal(status, 200);
  assert.equal(await world.net.balanceOf(buyer.address), before - 20000n);
});
