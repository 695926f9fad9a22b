// Reliability of the paid route, properties 1, 2, 5, 8 and 9: real x402 clients
// paying on a real local chain through the real local facilitator, the real app and renderer.
// What is counted comes from the chain itself (Transfer and AuthorizationUsed events, balances).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { x402Client } from '@x402/core/client';
import { decodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { createLifecycle } from '../../src/lifecycle.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { pdfInfo } from '../fixtures/pdfTools.js';
import { isRunning, processTree } from '../fixtures/processes.js';
import {
  startFaultyFacilitator,
  type Fault,
  type FaultyFacilitator,
  type Operation,
} from '../support/faultyFacilitator.js';
import { startPaidService, startPaymentWorld } from '../support/paidService.js';
import {
  LONG,
  PRICE,
  chainAudit,
  challengeOf,
  decodeNonce,
  figure,
  ms,
  nonceKey,
  percentile,
  runFor,
  signerFor,
  timingTarget,
  variant,
} from './harness.js';

let world: Awaited<ReturnType<typeof startPaymentWorld>>;
let proxy: FaultyFacilitator;
/** The service as deployed: render capacity reserved before verify, the facilitator behind the proxy. */
let service: Awaited<ReturnType<typeof startPaidService>>;
let required: PaymentRequired;
let audit: ReturnType<typeof chainAudit>;

/** Short enough for hung facilitator calls to end quickly, long enough for a loaded settle. */
const FACILITATOR_TIMEOUT_MS = 2_500;

before(
  async () => {
    world = await startPaymentWorld();
    proxy = await startFaultyFacilitator(world.net.facilitatorUrl);
    service = await startPaidService({
      rateLimits: false,
      net: world.net,
      renderer: world.renderer,
      facilitatorUrl: proxy.url,
      facilitatorTimeoutMs: FACILITATOR_TIMEOUT_MS,
    });
    required = await challengeOf(service.url);
    audit = chainAudit(world.net);
  },
  { timeout: 60_000 },
);
after(
  async () => {
    await service?.close();
    await proxy?.close();
    await world?.close();
  },
  { timeout: 30_000 },
);

const invoice = (id: string) => ({ ...EXAMPLE_INVOICE, invoice_number: id });
const pay = (url: string, header: string, body: unknown = EXAMPLE_INVOICE) =>
  fetch(`${url}/v1/invoice.pdf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'PAYMENT-SIGNATURE': header },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });

describe('1 paid load', () => {
  test(
    '4 concurrent x402 clients: every request paid once, one transfer and one valid PDF per 200',
    { timeout: variant(120_000, 300_000) },
    async () => {
      const durationMs = variant(10_000, 60_000);
      const buyers = world.net.buyers.slice(0, 4);
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
      const fromBlock = (await audit.blockNumber()) + 1n;
      const payToBefore = await world.net.balanceOf(world.net.payTo);
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
          const response = await clients[worker]!(`${service.url}/v1/invoice.pdf`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(invoice(`LOAD-${++sequence}`)),
            signal: AbortSignal.timeout(60_000),
          });
          const body = Buffer.from(await response.arrayBuffer());
          results.push({
            status: response.status,
            ms: performance.now() - started,
            ...(response.status === 200 ? { pdf: body, receipt: response.headers.get('PAYMENT-RESPONSE') ?? '' } : {}),
            ...(lastSignature[worker] ? { signature: lastSignature[worker] } : {}),
          });
        } catch (error) {
          results.push({ status: 0, ms: performance.now() - started, error: String(error) });
        }
      });

      const ok = results.filter((result) => result.status === 200);
      const transfers = await audit.transfersToPayTo(fromBlock);
      const payToDelta = (await world.net.balanceOf(world.net.payTo)) - payToBefore;
      const used = await audit.authorizationsUsed(fromBlock);
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
      const buyer = world.net.buyers[4]!;
      const sign = signerFor(buyer, required);
      const figures: string[] = [];

      for (const mode of ['at once', 'in sequence'] as const) {
        const { header } = await sign();
        const before = await world.net.balanceOf(buyer.address);
        const rendersBefore = service.renders();
        const settlesBefore = proxy.calls('settle');
        const responses: Response[] = [];
        if (mode === 'at once')
          responses.push(...(await Promise.all(Array.from({ length: 20 }, () => pay(service.url, header)))));
        else for (let i = 0; i < 20; i++) responses.push(await pay(service.url, header));
        const statuses = responses.map((response) => response.status);
        const pdfs = await Promise.all(responses.map(async (response) => Buffer.from(await response.arrayBuffer())));
        const okPdfs = pdfs.filter((_, i) => statuses[i] === 200);
        const transfers = (before - (await world.net.balanceOf(buyer.address))) / PRICE;
        const renders = service.renders() - rendersBefore;
        const count = (status: number) => statuses.filter((s) => s === status).length;
        figures.push(
          `×20 ${mode}: ${count(200)}×200 ${count(409)}×409, ${transfers} transfer, ${renders} render, ${proxy.calls('settle') - settlesBefore} settle call`,
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
        assert.equal(proxy.calls('settle') - settlesBefore, 1);
      }
      figure('2 replay', figures.join('; '));
    },
  );
});

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
    { name: 'verify garbage', operation: 'verify', fault: { answer: { hello: 'world' } }, expect: 'facilitator-error' },
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
    { name: 'settle pending after the transfer', operation: 'settle', fault: 'forward-as-pending', expect: 'unknown' },
    { name: 'settle garbage', operation: 'settle', fault: { answer: { ok: true } }, expect: 'unknown' },
  ];

  test(
    'no PDF without a transfer, no transfer without a PDF delivered or collected, no 402 for an unknown outcome',
    { timeout: variant(180_000, 900_000) },
    async () => {
      const rounds = variant(1, 5);
      const buyer = world.net.buyers[5]!;
      const sign = signerFor(buyer, required);
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
          const rendersBefore = service.renders();
          const balanceBefore = await world.net.balanceOf(buyer.address);
          if (fault === 'refused' && operation === 'verify') await proxy.refuseConnections();
          // Verify goes through (the render runs meanwhile); then the facilitator refuses connections.
          else if (fault === 'refused') proxy.fault('forward-then-refuse', 'verify');
          else proxy.fault(fault, operation);

          const first = await pay(service.url, signed.header, invoice(`FAULT-${round}-${index}`));
          const firstBody = Buffer.from(await first.arrayBuffer());
          await proxy.acceptConnections();
          proxy.fault('forward');
          firstStatuses.set(name, new Set([...(firstStatuses.get(name) ?? []), first.status]));

          const settledAfterFirst = await world.net.authorizationState(signed.from, signed.nonce);
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
            rendersOnVerifyFaults += service.renders() - rendersBefore;
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
          const again = await pay(service.url, signed.header, invoice(`FAULT-${round}-${index}`));
          const againBody = Buffer.from(await again.arrayBuffer());
          const settled = await world.net.authorizationState(signed.from, signed.nonce);
          assert.equal(again.status, 200, `${name}: re-send ${again.status} ${againBody.toString().slice(0, 200)}`);
          assert.equal(againBody.subarray(0, 5).toString(), '%PDF-');
          if (!settled) pdfsWithoutTransfer++;
          if (expect === 'unknown') collected++;
          const paid = (balanceBefore - (await world.net.balanceOf(buyer.address))) / PRICE;
          assert.equal(paid, 1n, `${name}: exactly one transfer`);
          if (paid > 0n && again.status !== 200 && first.status !== 200) transfersWithoutPdf++;
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

describe('8 capacity', () => {
  let small: Renderer;
  let busyService: Awaited<ReturnType<typeof startPaidService>>;
  let busyProxy: FaultyFacilitator;
  before(
    async () => {
      small = await createRenderer({ poolSize: 1, queueLimit: 1 });
      busyProxy = await startFaultyFacilitator(world.net.facilitatorUrl);
      busyService = await startPaidService({
        rateLimits: false,
        net: world.net,
        renderer: small,
        facilitatorUrl: busyProxy.url,
      });
      // Warm the compute pool (bodies are parsed there): its workers' start-up would otherwise spread
      // the simultaneous requests out in time, so that some find the renderer free again.
      await challengeOf(busyService.url);
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
    'pool slots + queue + 10 paid requests at once: the overflow gets 503 + Retry-After before any verify',
    { timeout: 120_000 },
    async () => {
      const capacity = 1 + 1;
      const rounds = variant(1, 10);
      const buyer = world.net.buyers[6]!;
      const sign = signerFor(buyer, required);
      let busy = 0;
      let ok = 0;
      let verifies = 0;
      let transfers = 0n;
      for (let round = 0; round < rounds; round++) {
        const signed = await Promise.all(Array.from({ length: capacity + 10 }, () => sign()));
        const verifyBefore = busyProxy.calls('verify');
        const balanceBefore = await world.net.balanceOf(buyer.address);
        const responses = await Promise.all(
          signed.map((s, i) => pay(busyService.url, s.header, invoice(`CAP-${round}-${i}`))),
        );
        const bodies = await Promise.all(responses.map(async (response) => Buffer.from(await response.arrayBuffer())));
        const statuses = responses.map((response) => response.status);
        const roundBusy = responses.filter((response) => response.status === 503);
        for (const response of roundBusy) assert.match(response.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
        for (const [i, response] of responses.entries()) {
          if (response.status === 503) assert.equal(JSON.parse(bodies[i]!.toString()).error.code, 'renderer_busy');
        }
        const roundVerifies = busyProxy.calls('verify') - verifyBefore;
        const roundTransfers = (balanceBefore - (await world.net.balanceOf(buyer.address))) / PRICE;
        assert.equal(
          statuses.filter((status) => status === 200).length + roundBusy.length,
          statuses.length,
          statuses.join(','),
        );
        assert.equal(
          roundVerifies,
          statuses.length - roundBusy.length,
          'verify only for the requests that got a render slot',
        );
        assert.equal(roundTransfers, BigInt(statuses.length - roundBusy.length));
        // Bodies are parsed on the compute pool, so requests sent at once reach the renderer's
        // admission spread over their parse times, and a render that ends meanwhile frees its slot:
        // most of the overflow, not all of it, is turned away (every 503 before any verify, above).
        assert.ok(roundBusy.length >= 6, `${roundBusy.length} turned away`);
        busy += roundBusy.length;
        ok += statuses.length - roundBusy.length;
        verifies += roundVerifies;
        transfers += roundTransfers;
      }
      figure(
        '8 capacity',
        `pool 1 + queue 1, ${capacity + 10} paid requests at once × ${rounds}: ${ok}×200, ${busy}×503 with Retry-After, ${verifies} verify calls (= the 200s), ${transfers} transfers`,
      );
    },
  );
});

describe('9 SIGTERM during load', () => {
  test(
    'regression: a settlement counts as under way until its PDF has been written, so shutdown cannot cut it off',
    { timeout: 60_000 },
    async () => {
      // What shutdown does after its deadline: wait for settlements, then cut every connection.
      // The settlement used to end when settle() returned, a few microtasks before Koa wrote the
      // PDF: the cut landed in between and the paid PDF was lost with the process.
      const lifecycle = createLifecycle();
      const slow = await startFaultyFacilitator(world.net.facilitatorUrl);
      slow.fault({ delayMs: 300 }, 'settle');
      const draining = await startPaidService({
        rateLimits: false,
        net: world.net,
        renderer: world.renderer,
        facilitatorUrl: slow.url,
        lifecycle,
      });
      try {
        const signed = await signerFor(world.net.buyers[7]!, required)();
        const response = pay(draining.url, signed.header).then(async (r) => ({
          status: r.status,
          pdf: Buffer.from(await r.arrayBuffer()),
        }));
        await slow.called('settle');
        assert.equal(slow.calls('settle'), 1, 'the settle call is under way');
        lifecycle.drain();
        lifecycle.passDeadline();
        await lifecycle.settlementsDone(15_000);
        draining.cutConnections();
        const answer = await response;
        assert.equal(answer.status, 200);
        assert.equal(answer.pdf.subarray(0, 5).toString(), '%PDF-');
        assert.equal(await world.net.authorizationState(signed.from, signed.nonce), true);
      } finally {
        await draining.close();
        await slow.close();
      }
    },
  );

  /** The real src/main.ts as a process, its facilitator our local one so the chain outlives it. */
  async function spawnService(
    deadlineMs: number,
    facilitatorUrl: string,
  ): Promise<{ child: ChildProcess; url: string; lines: string[]; exited: Promise<number | null> }> {
    const lines: string[] = [];
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        FACILITATOR_URL: facilitatorUrl,
        PAY_TO: world.net.payTo,
        LOCAL_TEST_CHAIN: 'on',
        SHUTDOWN_DEADLINE_MS: String(deadlineMs),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stderr!.on('data', (chunk) => lines.push(String(chunk)));
    const reader = createInterface({ input: child.stdout! });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no "listening" line in 60 s:\n${lines.slice(-10).join('\n')}`)),
        60_000,
      );
      void exited.then(() => reject(new Error(`exited before listening:\n${lines.slice(-10).join('\n')}`)));
      reader.on('line', (line) => {
        lines.push(line);
        try {
          const entry = JSON.parse(line) as { msg?: string; url?: string };
          if (entry.msg === 'listening' && entry.url) {
            clearTimeout(timer);
            resolve(entry.url);
          }
        } catch {
          // not a log line
        }
      });
    });
    return { child, url, lines, exited };
  }

  test(
    'no nonce settled without its PDF delivered; the process exits within the deadline, without waiting it out',
    { timeout: variant(120_000, 600_000) },
    async () => {
      const deadlines = variant([5_000], [200, 1_000, 5_000, 10_000]);
      const loadBeforeMs = variant(2_000, 5_000);
      const figures: string[] = [];
      let settledWithoutPdf = 0;
      // Settlements that take a while, as on a real chain: the deadline falls in the middle of some.
      const slow = await startFaultyFacilitator(world.net.facilitatorUrl);
      slow.fault({ delayMs: 400 }, 'settle');
      try {
        for (const deadlineMs of deadlines) {
          const { child, url, lines, exited } = await spawnService(deadlineMs, slow.url);
          const browserProcesses = () => processTree(child.pid!).slice(1);
          try {
            const buyers = world.net.buyers.slice(0, 4);
            const signers = buyers.map((buyer) => signerFor(buyer, required));
            const attempts: {
              from: `0x${string}`;
              nonce: `0x${string}`;
              status: number;
              pdf: boolean;
              afterSignal: boolean;
            }[] = [];
            let signalled = false;
            let stop = false;
            const load = Promise.all(
              signers.map(async (sign, worker) => {
                for (let i = 0; i < 1_000 && !stop; i++) {
                  const signed = await sign();
                  const afterSignal = signalled;
                  try {
                    const response = await pay(url, signed.header, invoice(`TERM-${worker}-${i}`));
                    const body = Buffer.from(await response.arrayBuffer());
                    attempts.push({
                      ...signed,
                      status: response.status,
                      pdf: response.status === 200 && body.subarray(0, 5).toString() === '%PDF-',
                      afterSignal,
                    });
                  } catch {
                    attempts.push({ ...signed, status: 0, pdf: false, afterSignal }); // refused or cut
                    if (signalled) return; // the listener is gone: this client stops
                    await new Promise((resolve) => setTimeout(resolve, 50));
                  }
                }
              }),
            );
            await new Promise((resolve) => setTimeout(resolve, loadBeforeMs));
            const processes = [child.pid!, ...browserProcesses()];
            signalled = true;
            const signalledAt = performance.now();
            child.kill('SIGTERM');
            let timer: NodeJS.Timeout | undefined;
            const code = await Promise.race([
              exited,
              new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), deadlineMs + 30_000))),
            ]);
            clearTimeout(timer);
            const exitMs = performance.now() - signalledAt;
            stop = true;
            await load;
            for (let i = 0; i < 20 && processes.some(isRunning); i++)
              await new Promise((resolve) => setTimeout(resolve, 100));

            let settled = 0;
            let withoutPdf = 0;
            for (const attempt of attempts) {
              if (!(await world.net.authorizationState(attempt.from, attempt.nonce))) continue;
              settled++;
              if (!attempt.pdf) withoutPdf++;
            }
            settledWithoutPdf += withoutPdf;
            const count = (predicate: (a: (typeof attempts)[number]) => boolean) => attempts.filter(predicate).length;
            const statuses = [...new Set(attempts.map((a) => a.status))]
              .sort()
              .map((status) => `${count((a) => a.status === status)}×${status || 'no answer'}`);
            figures.push(
              `deadline ${deadlineMs} ms: ${attempts.length} requests (${count((a) => a.afterSignal)} sent after SIGTERM): ${statuses.join(' ')}; ` +
                `${settled} nonces settled, ${withoutPdf} settled without a PDF; exit code ${code} after ${ms(exitMs)}; ${processes.filter(isRunning).length} processes left`,
            );
            console.log(`[reliability]   9 SIGTERM, ${figures.at(-1)}`);
            assert.equal(code, 0, lines.slice(-5).join('\n'));
            assert.equal(
              withoutPdf,
              0,
              `deadline ${deadlineMs}: a nonce was settled but its PDF never reached the client`,
            );
            timingTarget(
              exitMs < deadlineMs + 2_000,
              `exit after ${ms(exitMs)} (deadline ${deadlineMs} ms + 2 s to close the browser)`,
            );
            // Keep-alive clients get no new work once draining (their connections close after the
            // answer in flight), so a long deadline is not waited out.
            if (deadlineMs >= 5_000)
              timingTarget(
                exitMs < deadlineMs - 1_000,
                `exit after ${ms(exitMs)}: the drain waited for the ${deadlineMs} ms deadline`,
              );
            assert.deepEqual(processes.filter(isRunning), [], 'no process outlives the service by 2 s');
            assert.ok(count((a) => a.status === 200) >= 1);
          } finally {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          }
        }
      } finally {
        await slow.close();
      }
      figure('9 SIGTERM during load', `${figures.join('; ')}${LONG ? '' : ''}`);
      assert.equal(settledWithoutPdf, 0);
    },
  );
});
