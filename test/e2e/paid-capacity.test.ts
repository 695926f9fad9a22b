import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { createRenderer } from '../../src/render/renderer.js';
import { waitUntil } from '../fixtures/processes.js';
import { startFaultyFacilitator } from '../support/faultyFacilitator.js';
import { holdingTheOnlyPage } from '../support/heldPage.js';
import { startPaidService } from '../support/paidService.js';
import { usePaymentWorld } from '../support/paymentWorld.js';
import { postJson } from '../support/testApp.js';
import { challengeOf, signerFor } from '../support/x402Buyer.js';

/**
 * The paid request with render capacity on, as in production (createService): verify runs while the
 * render runs, only for renders that were admitted; a refused verify throws the render away and
 * frees its slot. One page and no queue make the capacity easy to fill.
 */

const world = usePaymentWorld(
  async ({ net }, stopLater) => {
    // A renderer of its own: one page and no queue, so that capacity runs out at once.
    const renderer = stopLater(await createRenderer({ poolSize: 1, queueLimit: 0 }));
    const proxy = stopLater(await startFaultyFacilitator(net.facilitatorUrl));
    const service = stopLater(await startPaidService({ net, renderer, facilitatorUrl: proxy.url }));
    return { renderer, proxy, service };
  },
  { renderer: false },
);

const pay = (header: string, body: unknown = EXAMPLE_INVOICE) =>
  postJson(`${world.service.url}/v1/invoice.pdf`, body, { 'PAYMENT-SIGNATURE': header });

test(
  'a full renderer turns paid requests away with 503 before the facilitator hears of them',
  { timeout: 60_000 },
  async () => {
    const sign = signerFor(world.net.buyers[1]!, await challengeOf(world.service.url));
    const signed = await Promise.all(Array.from({ length: 4 }, () => sign()));
    const [admitted, ...turnedAway] = signed;
    const verifiesBefore = world.proxy.calls('verify');
    const busy = await holdingTheOnlyPage(world.renderer, () =>
      Promise.all(turnedAway.map((s, i) => pay(s.header, { ...EXAMPLE_INVOICE, invoice_number: `CAP-${i}` }))),
    );
    for (const response of busy) {
      assert.equal(response.status, 503);
      assert.equal((await response.json()).error.code, 'renderer_busy');
      assert.equal(response.headers.get('retry-after'), '1');
      assert.equal(response.headers.get('x-page-count'), null);
    }
    assert.equal(world.proxy.calls('verify'), verifiesBefore, 'the facilitator heard of none of them');
    await waitUntil(() => world.renderer.hasRoom(), 20_000);
    const served = await pay(admitted!.header, { ...EXAMPLE_INVOICE, invoice_number: 'CAP-3' });
    assert.equal(served.status, 200);
    assert.equal(world.proxy.calls('verify') - verifiesBefore, 1, 'verify for the admitted request only');
    for (const s of turnedAway) assert.equal(await world.net.authorizationState(s.from, s.nonce), false);
    assert.equal(await world.net.authorizationState(admitted!.from, admitted!.nonce), true);
  },
);

test(
  'verify refused while the render runs: 402, no PDF, nothing on chain, and the render slot is free again',
  { timeout: 60_000 },
  async () => {
    const sign = signerFor(world.net.buyers[2]!, await challengeOf(world.service.url));
    const refused = await sign();
    world.proxy.fault(
      { answer: { isValid: false, invalidReason: 'invalid_exact_evm_payload_signature', payer: refused.from } },
      'verify',
    );
    const rendersBefore = world.service.renders();
    try {
      const response = await pay(refused.header);
      assert.equal(response.status, 402);
      assert.ok(response.headers.get('PAYMENT-REQUIRED'));
      assert.equal(response.headers.get('PAYMENT-RESPONSE'), null);
      assert.equal(response.headers.get('content-disposition'), null);
      assert.equal(world.service.renders() - rendersBefore, 1, 'the render was started alongside verify');
    } finally {
      world.proxy.fault('forward');
    }
    assert.equal(await world.net.authorizationState(refused.from, refused.nonce), false);
    await waitUntil(() => world.renderer.hasRoom(), 20_000);
    const next = await pay((await sign()).header);
    assert.equal(next.status, 200);
    assert.equal(
      Buffer.from(await next.arrayBuffer())
        .subarray(0, 5)
        .toString(),
      '%PDF-',
    );
  },
);

test(
  'readiness asks the renderer what admission asks: the queue check fails while the only slot is taken',
  { timeout: 60_000 },
  async () => {
    const readyQueue = async () =>
      (
        (await (await fetch(`${world.service.url}/readyz`, { signal: AbortSignal.timeout(10_000) })).json()) as {
          checks: { queue: boolean };
        }
      ).checks.queue;
    assert.equal(await readyQueue(), true);
    const sign = signerFor(world.net.buyers[3]!, await challengeOf(world.service.url));
    world.proxy.fault({ delayMs: 1_000 }, 'verify'); // holds the admitted request (and its slot) for a second
    try {
      const paying = pay((await sign()).header);
      await waitUntil(() => !world.renderer.hasRoom(), 10_000);
      assert.equal(await readyQueue(), false);
      assert.equal((await paying).status, 200);
    } finally {
      world.proxy.fault('forward');
    }
    await waitUntil(() => world.renderer.hasRoom(), 20_000);
    assert.equal(await readyQueue(), true);
  },
);
