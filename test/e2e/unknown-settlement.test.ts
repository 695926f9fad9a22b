// A settlement whose outcome the service never heard (docs/paying-and-x402.md, "A settlement whose outcome is unknown"): the
// answer is 502/504 settlement_unknown, never 402; the rendered PDF is kept with the locked
// authorization, and a re-send of the same PAYMENT-SIGNATURE settles again and collects it. A named
// fault-injecting proxy in front of the real local facilitator breaks settle calls in the ways a
// facilitator or network breaks, sometimes after the transfer really happened on the real chain.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { createWalletClient, http, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import type { DevKey } from '../../src/payment/local/devAccounts.js';
import { startFaultyFacilitator, type Fault } from '../support/faultyFacilitator.js';
import { startPaidService, USDC } from '../support/paidService.js';
import { usePaymentWorld } from '../support/paymentWorld.js';
import { postJson } from '../support/testApp.js';
import { challengeOf, signerFor, type Signed } from '../support/x402Buyer.js';

const world = usePaymentWorld(async ({ net, renderer }, stopLater) => {
  const proxy = stopLater(await startFaultyFacilitator(net.facilitatorUrl));
  const service = stopLater(
    await startPaidService({ net, renderer, facilitatorUrl: proxy.url, facilitatorTimeoutMs: 3_000 }),
  );
  return { proxy, service };
});

const invoiceUrl = () => `${world.service.url}/v1/invoice.pdf`;
async function signFor(buyer: DevKey): Promise<Signed> {
  return signerFor(buyer, await challengeOf(world.service.url))();
}

const pay = (header: string, body: unknown = EXAMPLE_INVOICE) =>
  postJson(invoiceUrl(), body, { 'PAYMENT-SIGNATURE': header });

/** Pays once with the settle call broken by `fault`; answers what the buyer saw and what moved on chain. */
async function payThrough(fault: Fault, buyer: DevKey) {
  const { header, nonce } = await signFor(buyer);
  const before = await world.net.balanceOf(buyer.address);
  world.proxy.fault(fault, 'settle');
  const response = await pay(header);
  world.proxy.fault('forward');
  const body = await response.json();
  return { header, nonce, before, response, body };
}

async function assertUnknown(response: Response, body: { error: { code: string } }, status: 502 | 504) {
  assert.equal(response.status, status);
  assert.equal(body.error.code, 'settlement_unknown');
  assert.equal(response.headers.get('PAYMENT-REQUIRED'), null, 'never a 402 challenge');
  assert.equal(response.headers.get('PAYMENT-RESPONSE'), null);
  assert.notEqual(response.headers.get('content-type'), 'application/pdf');
}

/** Re-sends and checks that the PDF comes only with a transfer, and exactly one. */
async function collect(header: string, buyer: DevKey, nonce: `0x${string}`, before: bigint) {
  const response = await pay(header);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/pdf');
  const pdf = Buffer.from(await response.arrayBuffer());
  assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
  const receipt = decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE')!);
  assert.equal(receipt.success, true);
  assert.equal(receipt.network, 'eip155:8453');
  assert.equal(receipt.payer?.toLowerCase(), buyer.address.toLowerCase());
  assert.equal(
    await world.net.authorizationState(buyer.address, nonce),
    true,
    'the PDF comes only once the transfer exists',
  );
  assert.equal(await world.net.balanceOf(buyer.address), before - 20000n, 'exactly one transfer');
  return { pdf, receipt, header: response.headers.get('PAYMENT-RESPONSE')! };
}

describe('the transfer happened but the service never heard', () => {
  for (const [fault, status] of [
    ['forward-then-drop', 502],
    ['forward-then-500', 502],
    ['forward-then-hang', 504],
  ] as const) {
    test(`settle ${fault}: ${status} settlement_unknown, then the same signature collects the same PDF once`, async () => {
      const buyer = world.net.buyers[['forward-then-drop', 'forward-then-500', 'forward-then-hang'].indexOf(fault)]!;
      const rendersBefore = world.service.renders();
      const first = await payThrough(fault, buyer);
      await assertUnknown(first.response, first.body, status);
      assert.equal(await world.net.authorizationState(buyer.address, first.nonce), true, 'the facilitator did settle');

      const collected = await collect(first.header, buyer, first.nonce, first.before);
      assert.equal(collected.receipt.transaction, '', 'the settling transaction was never reported to us');
      assert.equal(world.service.renders() - rendersBefore, 1, 'the parked PDF, not a second render');
      // The re-settle heard the real local facilitator's reason for a used authorization.
      const collectedEvent = world.service.eventDetails.findLast(
        (event) => event.event === 'collected' && event.nonce === first.nonce,
      );
      assert.equal(collectedEvent?.reason, 'invalid_exact_evm_nonce_already_used');

      const again = await pay(first.header);
      assert.equal(again.status, 200);
      assert.deepEqual(Buffer.from(await again.arrayBuffer()), collected.pdf);
      assert.equal(again.headers.get('PAYMENT-RESPONSE'), collected.header);
      assert.equal(await world.net.balanceOf(buyer.address), first.before - 20000n);
    });
  }

  test('settle answered settlement_pending: 502, and the receipt collected later names the pending transaction', async () => {
    const buyer = world.net.buyers[3]!;
    const first = await payThrough('forward-as-pending', buyer);
    await assertUnknown(first.response, first.body, 502);
    const collected = await collect(first.header, buyer, first.nonce, first.before);
    assert.match(collected.receipt.transaction, /^0x[0-9a-f]{64}$/);
  });
});

describe('the transfer did not happen', () => {
  test('settle 500 before forwarding: 502, no transfer and no PDF; the re-send settles now and gets the PDF', async () => {
    const buyer = world.net.buyers[4]!;
    const first = await payThrough('error500', buyer);
    await assertUnknown(first.response, first.body, 502);
    assert.equal(await world.net.authorizationState(buyer.address, first.nonce), false);
    assert.equal(await world.net.balanceOf(buyer.address), first.before);

    // Still failing: 502 again, still parked (no 402, no render, no transfer).
    world.proxy.fault('drop', 'settle');
    const stillFailing = await pay(first.header);
    world.proxy.fault('forward');
    await assertUnknown(stillFailing, await stillFailing.json(), 502);
    assert.equal(await world.net.balanceOf(buyer.address), first.before);

    const collected = await collect(first.header, buyer, first.nonce, first.before);
    assert.match(collected.receipt.transaction, /^0x[0-9a-f]{64}$/, 'settled by the re-send');
  });

  test('settle hangs before forwarding: 504, and the re-send settles', async () => {
    const buyer = world.net.buyers[5]!;
    const first = await payThrough('hang', buyer);
    await assertUnknown(first.response, first.body, 504);
    assert.equal(await world.net.authorizationState(buyer.address, first.nonce), false);
    await collect(first.header, buyer, first.nonce, first.before);
  });

  test('a parked payment whose funds are gone by the re-send fails for good: 402 with a failed receipt, no PDF, the nonce unused', async () => {
    const buyer = world.net.buyers[6]!;
    const first = await payThrough('error500', buyer);
    await assertUnknown(first.response, first.body, 502);
    const wallet = createWalletClient({
      account: privateKeyToAccount(buyer.privateKey),
      transport: http(world.net.rpcUrl),
    });
    await wallet.writeContract({
      chain: null,
      address: USDC,
      abi: parseAbi(['function transfer(address,uint256) returns (bool)']),
      functionName: 'transfer',
      args: [world.net.buyers[8]!.address, first.before],
    });
    for (let i = 0; i < 50 && (await world.net.balanceOf(buyer.address)) !== 0n; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));

    const resent = await pay(first.header);
    assert.equal(resent.status, 402);
    assert.equal((await resent.json()).error.code, 'settlement_failed');
    const receipt = decodePaymentResponseHeader(resent.headers.get('PAYMENT-RESPONSE')!);
    assert.equal(receipt.success, false);
    assert.match(receipt.errorReason ?? '', /insufficient_balance/);
    assert.equal(await world.net.authorizationState(buyer.address, first.nonce), false);
    // Released: the authorization is an ordinary unpaid one again (verify now refuses it).
    const again = await pay(first.header);
    assert.equal(again.status, 402);
    assert.match(
      decodePaymentRequiredHeader(again.headers.get('PAYMENT-REQUIRED')!).error ?? '',
      /insufficient_balance/,
    );
  });
});

describe('collecting is single-flight and tied to the body', () => {
  test('another body under a parked signature is 409; the right body still collects', async () => {
    const buyer = world.net.buyers[7]!;
    const first = await payThrough('forward-then-drop', buyer);
    await assertUnknown(first.response, first.body, 502);
    const other = await pay(first.header, { ...EXAMPLE_INVOICE, invoice_number: 'OTHER-2' });
    assert.equal(other.status, 409);
    assert.equal((await other.json()).error.code, 'payment_reused');
    await collect(first.header, buyer, first.nonce, first.before);
  });

  test('ten re-sends at once: one settle call, one transfer, the same PDF for every 200', async () => {
    const buyer = world.net.buyers[8]!;
    const first = await payThrough('error500', buyer);
    await assertUnknown(first.response, first.body, 502);
    const settlesBefore = world.proxy.calls('settle');
    const responses = await Promise.all(Array.from({ length: 10 }, () => pay(first.header)));
    const statuses = responses.map((response) => response.status);
    assert.ok(
      statuses.every((status) => status === 200 || status === 409),
      statuses.join(','),
    );
    const pdfs = await Promise.all(
      responses.filter((r) => r.status === 200).map(async (r) => Buffer.from(await r.arrayBuffer())),
    );
    assert.ok(pdfs.length >= 1);
    for (const pdf of pdfs) assert.deepEqual(pdf, pdfs[0]);
    assert.equal(world.proxy.calls('settle') - settlesBefore, 1, 'one re-settle');
    assert.equal(await world.net.balanceOf(buyer.address), first.before - 20000n);
  });
});
