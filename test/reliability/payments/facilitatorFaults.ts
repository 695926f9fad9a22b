// Reliability property 5 of the paid route (payments.test.ts): every fault a facilitator can
// have, on verify and on settle, before and after the transfer, and what the buyer gets.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { type Fault, type Operation } from '../../support/faultyFacilitator.js';
import { PRICE, figure, signerFor, variant } from '../harness.js';
import { invoice, pay, type PaidWorld } from './paidWorld.js';

export function facilitatorFaultTests(paid: PaidWorld): void {
  describe('5 facilitator faults', () => {
    interface Case {
      name: string;
      operation: Operation;
      fault: Fault | 'refused';
      /** What the first answer must be. */
      expect: 'facilitator-error' | 'settle-failed' | 'unknown';
    }
    const network = 'eip155:8453';
    const cases: Case[] = [
      { name: 'verify 500', operation: 'verify', fault: 'error500', expect: 'facilitator-error' },
      { name: 'verify hang', operation: 'verify', fault: 'hang', expect: 'facilitator-error' },
      { name: 'verify refused', operation: 'verify', fault: 'refused', expect: 'facilitator-error' },
      {
        name: 'verify garbage',
        operation: 'verify',
        fault: { answer: { hello: 'world' } },
        expect: 'facilitator-error',
      },
      {
        name: 'settle success:false',
        operation: 'settle',
        fault: {
          answer: { success: false, errorReason: 'invalid_exact_evm_insufficient_balance', transaction: '', network },
        },
        expect: 'settle-failed',
      },
      { name: 'settle 500', operation: 'settle', fault: 'error500', expect: 'unknown' },
      { name: 'settle 500 after the transfer', operation: 'settle', fault: 'forward-then-500', expect: 'unknown' },
      { name: 'settle hang', operation: 'settle', fault: 'hang', expect: 'unknown' },
      { name: 'settle hang after the transfer', operation: 'settle', fault: 'forward-then-hang', expect: 'unknown' },
      { name: 'settle cut after the transfer', operation: 'settle', fault: 'forward-then-drop', expect: 'unknown' },
      { name: 'settle refused', operation: 'settle', fault: 'refused', expect: 'unknown' },
      {
        name: 'settle pending',
        operation: 'settle',
        fault: { answer: { success: false, errorReason: 'settlement_pending', transaction: '', network } },
        expect: 'unknown',
      },
      {
        name: 'settle pending after the transfer',
        operation: 'settle',
        fault: 'forward-as-pending',
        expect: 'unknown',
      },
      { name: 'settle garbage', operation: 'settle', fault: { answer: { ok: true } }, expect: 'unknown' },
    ];

    test(
      'no PDF without a transfer, no transfer without a PDF delivered or collected, no 402 for an unknown outcome',
      { timeout: variant(180_000, 900_000) },
      async () => {
        const rounds = variant(1, 5);
        const buyer = paid.world.net.buyers[5]!;
        const sign = signerFor(buyer, paid.required);
        let pdfsWithoutTransfer = 0;
        let transfersWithoutPdf = 0;
        let unknownAs402 = 0;
        let unknownOutcomes = 0;
        let collected = 0;
        let rendersOnVerifyFaults = 0;
        const firstStatuses = new Map<string, Set<number>>();

        for (let round = 0; round < rounds; round++) {
          // A fixed shuffle per round: faults follow each other in different orders.
          const order = cases
            .map((_, i) => i)
            .sort((a, b) => ((a * 7 + round * 5) % cases.length) - ((b * 7 + round * 5) % cases.length));
          for (const index of order) {
            const { name, operation, fault, expect } = cases[index]!;
            const signed = await sign();
            const rendersBefore = paid.service.renders();
            const balanceBefore = await paid.world.net.balanceOf(buyer.address);
            if (fault === 'refused' && operation === 'verify') await paid.proxy.refuseConnections();
            // Verify goes through (the render runs meanwhile); then the facilitator refuses connections.
            else if (fault === 'refused') paid.proxy.fault('forward-then-refuse', 'verify');
            else paid.proxy.fault(fault, operation);

            const first = await pay(paid.service.url, signed.header, invoice(`FAULT-${round}-${index}`));
            const firstBody = Buffer.from(await first.arrayBuffer());
            await paid.proxy.acceptConnections();
            paid.proxy.fault('forward');
            firstStatuses.set(name, new Set([...(firstStatuses.get(name) ?? []), first.status]));

            const settledAfterFirst = await paid.world.net.authorizationState(signed.from, signed.nonce);
            if (first.status === 200 && !settledAfterFirst) pdfsWithoutTransfer++;
            if (expect === 'unknown') {
              unknownOutcomes++;
              if (first.status === 402) unknownAs402++;
              assert.ok(
                first.status === 502 || first.status === 504,
                `${name}: ${first.status} ${firstBody.toString().slice(0, 200)}`,
              );
              assert.equal(JSON.parse(firstBody.toString()).error.code, 'settlement_unknown', name);
            }
            if (expect === 'facilitator-error') {
              assert.ok(first.status === 502 || first.status === 504, `${name}: ${first.status}`);
              assert.match(JSON.parse(firstBody.toString()).error.code, /^facilitator_(unavailable|timeout)$/, name);
              // The render ran alongside verify and was thrown away: the PDF never left.
              rendersOnVerifyFaults += paid.service.renders() - rendersBefore;
              assert.notEqual(firstBody.subarray(0, 5).toString(), '%PDF-', name);
              assert.equal(settledAfterFirst, false, name);
            }
            if (expect === 'settle-failed') {
              assert.equal(first.status, 402, name);
              assert.equal(decodePaymentResponseHeader(first.headers.get('PAYMENT-RESPONSE')!).success, false);
              assert.equal(settledAfterFirst, false, `${name}: the proxy never forwarded the settle`);
              continue; // a definite failure: the buyer signs a new payment, this one is dead
            }

            // The buyer re-sends the same signature once the facilitator works again.
            const again = await pay(paid.service.url, signed.header, invoice(`FAULT-${round}-${index}`));
            const againBody = Buffer.from(await again.arrayBuffer());
            const settled = await paid.world.net.authorizationState(signed.from, signed.nonce);
            assert.equal(again.status, 200, `${name}: re-send ${again.status} ${againBody.toString().slice(0, 200)}`);
            assert.equal(againBody.subarray(0, 5).toString(), '%PDF-');
            if (!settled) pdfsWithoutTransfer++;
            if (expect === 'unknown') collected++;
            const charged = (balanceBefore - (await paid.world.net.balanceOf(buyer.address))) / PRICE;
            assert.equal(charged, 1n, `${name}: exactly one transfer`);
            if (charged > 0n && again.status !== 200 && first.status !== 200) transfersWithoutPdf++;
          }
        }

        const statusText = [...firstStatuses]
          .map(([name, statuses]) => `${name} → ${[...statuses].join('/')}`)
          .join(', ');
        figure(
          '5 facilitator faults',
          `${cases.length} faults × ${rounds} round(s): ${pdfsWithoutTransfer} PDFs without a transfer, ${transfersWithoutPdf} transfers without a PDF ` +
            `(${collected} of ${unknownOutcomes} unknown outcomes collected by re-sending), ${unknownAs402} 402s for unknown outcomes, ` +
            `${rendersOnVerifyFaults} renders discarded after a failed verify; first answers: ${statusText}`,
        );
        assert.equal(pdfsWithoutTransfer, 0);
        assert.equal(transfersWithoutPdf, 0);
        assert.equal(unknownAs402, 0);
      },
    );
  });
}
