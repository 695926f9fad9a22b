// The payment-identifier extension (an idempotency key the client chooses) across two instances
// sharing one real redis-server: a retry signed anew with the same id and body gets the first
// result without a second charge, wherever it lands.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { x402Client } from '@x402/core/client';
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { appendPaymentIdentifierToExtensions, generatePaymentId } from '@x402/extensions/payment-identifier';
import { privateKeyToAccount } from 'viem/accounts';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import type { PaymentStore } from '../../src/payment/paymentStore.js';
import { createRedisPaymentStore } from '../../src/payment/redisPaymentStore.js';
import { startPaidService } from '../support/paidService.js';
import { fileWorld } from '../support/sharedWorld.js';
import { startRedisServer, type RedisServer } from '../support/redisServer.js';
import { postJson } from '../support/testApp.js';
import { authorizationOf, challengeOf } from '../support/x402Buyer.js';

let world: Awaited<ReturnType<typeof fileWorld>>;
let redis: RedisServer;
const stores: PaymentStore[] = [];
const instances: Awaited<ReturnType<typeof startPaidService>>[] = [];
let required: PaymentRequired;

before(
  async () => {
    redis = await startRedisServer();
    world = await fileWorld();
    for (let i = 0; i < 2; i++) {
      const store = createRedisPaymentStore({ url: redis.url, commandTimeoutMs: 1000 });
      stores.push(store);
      instances.push(await startPaidService({ net: world.net, renderer: world.renderer, store }));
    }
    required = await challengeOf(instances[0]!.url);
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

/** A fresh authorization (new nonce) carrying the payment id, as a client retrying would sign. */
async function signWithId(buyerIndex: number, id: string): Promise<PaymentPayload> {
  const buyer = world.net.buyers[buyerIndex]!;
  const payload = await new x402Client()
    .register('eip155:*', new ExactEvmScheme(privateKeyToAccount(buyer.privateKey)))
    .createPaymentPayload(required);
  return { ...payload, extensions: appendPaymentIdentifierToExtensions(structuredClone(payload.extensions ?? {}), id) };
}

const pay = (instance: number, payload: PaymentPayload, body: unknown = EXAMPLE_INVOICE) =>
  postJson(`${instances[instance]!.url}/v1/invoice.pdf`, body, {
    'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payload),
  });

test('the challenge offers the extension', () => {
  assert.deepEqual((required.extensions?.['payment-identifier'] as { info: unknown }).info, { required: false });
});

test('same id and body, signed anew, on the other instance: the same PDF and receipt, no second charge', async () => {
  const buyer = world.net.buyers[1]!;
  const before = await world.net.balanceOf(buyer.address);
  const id = generatePaymentId();
  const first = await pay(0, await signWithId(1, id));
  assert.equal(first.status, 200, await first.clone().text());
  const pdf = Buffer.from(await first.arrayBuffer());
  assert.equal(await world.net.balanceOf(buyer.address), before - 20000n);

  const retry = await signWithId(1, id);
  const again = await pay(1, retry);
  assert.equal(again.status, 200);
  assert.ok(Buffer.from(await again.arrayBuffer()).equals(pdf));
  assert.equal(
    decodePaymentResponseHeader(again.headers.get('PAYMENT-RESPONSE')!).transaction,
    decodePaymentResponseHeader(first.headers.get('PAYMENT-RESPONSE')!).transaction,
  );
  assert.equal(await world.net.balanceOf(buyer.address), before - 20000n, 'charged once');
  assert.equal(
    await world.net.authorizationState(buyer.address, authorizationOf(retry).nonce),
    false,
    "the retry's authorization is never used",
  );

  // The id is no bearer token: the same id and body under a payload the payer did not sign (same
  // `from`, a garbage signature) gets the challenge, not the PDF.
  const forged = await signWithId(1, id);
  (forged.payload as { signature: string }).signature = `0x${'11'.repeat(65)}`;
  const stolen = await pay(0, forged);
  assert.equal(stolen.status, 402);
  assert.equal(stolen.headers.get('PAYMENT-RESPONSE'), null);

  // The same id with another body is refused, and charges nothing.
  const other = await pay(0, await signWithId(1, id), { ...EXAMPLE_INVOICE, invoice_number: 'INV-OTHER' });
  assert.equal(other.status, 409);
  assert.equal((await other.json()).error.code, 'payment_reused');
  assert.equal(await world.net.balanceOf(buyer.address), before - 20000n);
});

test('two retries with one id at once on both instances: one charge, one PDF', async () => {
  const buyer = world.net.buyers[2]!;
  const before = await world.net.balanceOf(buyer.address);
  const id = generatePaymentId('order_');
  const [a, b] = await Promise.all([signWithId(2, id), signWithId(2, id)]);
  const responses = await Promise.all([pay(0, a!), pay(1, b!)]);
  assert.deepEqual(
    responses.map((response) => response.status),
    [200, 200],
  );
  const [pdfA, pdfB] = await Promise.all(responses.map(async (response) => Buffer.from(await response.arrayBuffer())));
  assert.ok(pdfA!.equals(pdfB!));
  assert.equal(await world.net.balanceOf(buyer.address), before - 20000n, 'one transfer');
});

test('a malformed id is a 400, never charged', async () => {
  const payload = await signWithId(3, generatePaymentId());
  const extension = payload.extensions!['payment-identifier'] as { info: { id: string } };
  extension.info.id = 'short'; // what a careless client could send: under 16 characters
  const response = await pay(0, payload);
  assert.equal(response.status, 400);
  assert.equal((await response.json()).error.code, 'invalid_payment_header');
});
