// Reliability properties 1 and 2 of the paid route (payments.test.ts): paid load by real x402
// clients, counted on the chain, and one signature sent many times.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { x402Client } from '@x402/core/client';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { pdfInfo } from '../../fixtures/pdfTools.js';
import { PRICE, decodeNonce, figure, ms, nonceKey, percentile, runFor, signerFor, variant } from '../harness.js';
import { invoice, pay, type PaidWorld } from './paidWorld.js';

export function paidLoadTests(paid: PaidWorld): void {
  describe('1 paid load', () => {
    test(
      '4 concurrent x402 clients: every request paid once, one transfer and one valid PDF per 200',
      { timeout: variant(120_000, 300_000) },
      async () => {
        const durationMs = variant(10_000, 60_000);
        const buyers = paid.world.net.buyers.slice(0, 4);
        const lastSignature: (string | undefined)[] = [];
        // Real @x402/fetch clients; the inner fetch only notes which authorization each one sent.
        const clients = buyers.map((buyer, worker) =>
          wrapFetchWithPayment(
            (input: RequestInfo | URL, init?: RequestInit) => {
              const request = new Request(input, init);
              const signature = request.headers.get('PAYMENT-SIGNATURE');
              if (signature) lastSignature[worker] = signature;
              return fetch(request);
            },
            new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(buyer.privateKey))),
          ),
        );
        const fromBlock = (await paid.audit.blockNumber()) + 1n;
        const payToBefore = await paid.world.net.balanceOf(paid.world.net.payTo);
        const results: {
          status: number;
          ms: number;
          pdf?: Buffer;
          receipt?: string;
          signature?: string;
          error?: string;
        }[] = [];
        let sequence = 0;

        await runFor(4, durationMs, 100_000, async (worker) => {
          const started = performance.now();
          lastSignature[worker] = undefined;
          try {
            const response = await clients[worker]!(`${paid.service.url}/v1/invoice.pdf`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(invoice(`LOAD-${++sequence}`)),
              signal: AbortSignal.timeout(60_000),
            });
            const body = Buffer.from(await response.arrayBuffer());
            results.push({
              status: response.status,
              ms: performance.now() - started,
              ...(response.status === 200
                ? { pdf: body, receipt: response.headers.get('PAYMENT-RESPONSE') ?? '' }
                : {}),
              ...(lastSignature[worker] ? { signature: lastSignature[worker] } : {}),
            });
          } catch (error) {
            results.push({ status: 0, ms: performance.now() - started, error: String(error) });
          }
        });

        const ok = results.filter((result) => result.status === 200);
        const transfers = await paid.audit.transfersToPayTo(fromBlock);
        const payToDelta = (await paid.world.net.balanceOf(paid.world.net.payTo)) - payToBefore;
        const used = await paid.audit.authorizationsUsed(fromBlock);
        const validPdfs = ok.filter(
          (result) => result.pdf!.subarray(0, 5).toString() === '%PDF-' && Number(pdfInfo(result.pdf!).Pages) >= 1,
        ).length;
        const paidNonces = ok
          .map((result) => decodeNonce(result.signature!))
          .map(({ from, nonce }) => nonceKey(from, nonce));
        const doubleSettled =
          [...used.values()].filter((count) => count > 1).length + (paidNonces.length - new Set(paidNonces).size);
        const transactions = new Set(ok.map((result) => decodePaymentResponseHeader(result.receipt!).transaction));
        const latencies = results.map((result) => result.ms);
        const lost = results.length - ok.length;
        figure(
          '1 paid load',
          `${results.length} requests in ${durationMs / 1000} s by 4 clients, ${ok.length}×200, ${lost} lost, ${transfers.count} transfers ` +
            `(Transfer events; payTo +${payToDelta} = ${payToDelta / PRICE}×${PRICE}), ${validPdfs} valid PDFs, ${doubleSettled} double-settled nonces, ` +
            `p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))} (402 + sign + paid request)`,
        );
        assert.ok(results.length >= 8, `only ${results.length} requests`);
        assert.equal(lost, 0, JSON.stringify(results.filter((result) => result.status !== 200).slice(0, 3)));
        assert.equal(transfers.count, ok.length, 'one on-chain transfer per 200');
        assert.equal(payToDelta, BigInt(ok.length) * PRICE);
        assert.equal(validPdfs, ok.length);
        assert.equal(doubleSettled, 0);
        assert.equal(used.size, ok.length);
        for (const key of paidNonces) assert.equal(used.get(key), 1, `nonce ${key} used once on chain`);
        assert.equal(transactions.size, ok.length, 'a distinct transaction per receipt');
      },
    );
  });

  describe('2 replay', () => {
    test(
      'one signature ×20 at once and ×20 in sequence: one transfer, one fresh render each',
      { timeout: 120_000 },
      async () => {
        const buyer = paid.world.net.buyers[4]!;
        const sign = signerFor(buyer, paid.required);
        const figures: string[] = [];

        for (const mode of ['at once', 'in sequence'] as const) {
          const { header } = await sign();
          const before = await paid.world.net.balanceOf(buyer.address);
          const rendersBefore = paid.service.renders();
          const settlesBefore = paid.proxy.calls('settle');
          const responses: Response[] = [];
          if (mode === 'at once')
            responses.push(...(await Promise.all(Array.from({ length: 20 }, () => pay(paid.service.url, header)))));
          else for (let i = 0; i < 20; i++) responses.push(await pay(paid.service.url, header));
          const statuses = responses.map((response) => response.status);
          const pdfs = await Promise.all(responses.map(async (response) => Buffer.from(await response.arrayBuffer())));
          const okPdfs = pdfs.filter((_, i) => statuses[i] === 200);
          const transfers = (before - (await paid.world.net.balanceOf(buyer.address))) / PRICE;
          const renders = paid.service.renders() - rendersBefore;
          const count = (status: number) => statuses.filter((s) => s === status).length;
          figures.push(
            `×20 ${mode}: ${count(200)}×200 ${count(409)}×409, ${transfers} transfer, ${renders} render, ${paid.proxy.calls('settle') - settlesBefore} settle call`,
          );

          assert.ok(
            statuses.every((status) => status === 200 || status === 409),
            statuses.join(','),
          );
          if (mode === 'in sequence') assert.equal(count(200), 20);
          assert.ok(okPdfs.length >= 1);
          for (const pdf of okPdfs) assert.deepEqual(pdf, okPdfs[0], 'the same stored result');
          assert.equal(transfers, 1n, 'exactly one transfer');
          assert.equal(renders, 1, 'exactly one fresh render');
          assert.equal(paid.proxy.calls('settle') - settlesBefore, 1);
        }
        figure('2 replay', figures.join('; '));
      },
    );
  });
}
