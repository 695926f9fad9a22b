// Reliability property 8 of the paid route (payments.test.ts): a saturated renderer answers
// 503 before any facilitator call.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createRenderer, type Renderer } from '../../../src/render/renderer.js';
import { startFaultyFacilitator, type FaultyFacilitator } from '../../support/faultyFacilitator.js';
import { holdingTheOnlyPage } from '../../support/heldPage.js';
import { startPaidService } from '../../support/paidService.js';
import { waitUntil } from '../../fixtures/processes.js';
import { PRICE, figure, signerFor, variant } from '../harness.js';
import { invoice, pay, type PaidWorld } from './paidWorld.js';

export function capacityTests(paid: PaidWorld): void {
  describe('8 capacity', () => {
    let small: Renderer;
    let busyService: Awaited<ReturnType<typeof startPaidService>>;
    let busyProxy: FaultyFacilitator;
    before(
      async () => {
        small = await createRenderer({ poolSize: 1, queueLimit: 1 });
        busyProxy = await startFaultyFacilitator(paid.world.net.facilitatorUrl);
        busyService = await startPaidService({
          rateLimits: false,
          net: paid.world.net,
          renderer: small,
          facilitatorUrl: busyProxy.url,
        });
        // Warm the compute pool (bodies are parsed there): its workers' start-up would otherwise spread
        // the simultaneous requests out in time, so that some find the renderer free again. A paid
        // request, since paid bodies have a worker of their own (an unpaid one warms another).
        const warm = await signerFor(paid.world.net.buyers[6]!, paid.required)();
        const warmed = await pay(busyService.url, warm.header, invoice('CAP-warm'));
        assert.equal(warmed.status, 200, await warmed.text());
      },
      { timeout: 30_000 },
    );
    after(
      async () => {
        await busyService?.close();
        await busyProxy?.close();
        await small?.close();
      },
      { timeout: 30_000 },
    );

    test(
      'a page held + queue 1 + 11 paid requests at once: the overflow gets 503 + Retry-After before any verify',
      { timeout: 120_000 },
      async () => {
        const sent = 12;
        const rounds = variant(1, 10);
        const buyer = paid.world.net.buyers[6]!;
        const sign = signerFor(buyer, paid.required);
        let busy = 0;
        let ok = 0;
        let verifies = 0;
        let transfers = 0n;
        for (let round = 0; round < rounds; round++) {
          const signed = await Promise.all(Array.from({ length: sent }, () => sign()));
          const verifyBefore = busyProxy.calls('verify');
          const balanceBefore = await paid.world.net.balanceOf(buyer.address);
          const responses = await holdingTheOnlyPage(small, async () => {
            const answers = signed.map((s, i) => pay(busyService.url, s.header, invoice(`CAP-${round}-${i}`)));
            // The queue's one place is taken and the rest turned away; the queued request waits for
            // the page until the browser runs again.
            let back = 0;
            for (const answer of answers)
              void answer.then(
                () => back++,
                () => back++,
              );
            await waitUntil(() => back >= sent - 1, 60_000);
            return answers;
          }).then((answers) => Promise.all(answers));
          const bodies = await Promise.all(
            responses.map(async (response) => Buffer.from(await response.arrayBuffer())),
          );
          const statuses = responses.map((response) => response.status);
          const roundBusy = responses.filter((response) => response.status === 503);
          for (const response of roundBusy) assert.match(response.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
          for (const [i, response] of responses.entries()) {
            if (response.status === 503) assert.equal(JSON.parse(bodies[i]!.toString()).error.code, 'renderer_busy');
          }
          const roundVerifies = busyProxy.calls('verify') - verifyBefore;
          const roundTransfers = (balanceBefore - (await paid.world.net.balanceOf(buyer.address))) / PRICE;
          // The page is held (holdingTheOnlyPage) and the queue has one place: one request is served,
          // however slowly the others reach admission on a loaded machine, and all the others are
          // turned away, every 503 before any verify.
          assert.equal(roundBusy.length, sent - 1, statuses.join(','));
          assert.equal(statuses.filter((status) => status === 200).length, 1, statuses.join(','));
          assert.equal(roundVerifies, 1, "verify only for the request that got the queue's place");
          assert.equal(roundTransfers, 1n);
          busy += roundBusy.length;
          ok += statuses.length - roundBusy.length;
          verifies += roundVerifies;
          transfers += roundTransfers;
        }
        figure(
          '8 capacity',
          `pool 1 (held) + queue 1, ${sent} paid requests at once × ${rounds}: ${ok}×200, ${busy}×503 with Retry-After, ${verifies} verify calls (= the 200s), ${transfers} transfers`,
        );
      },
    );
  });
}
