// Reliability property 6: fuzzed bodies against every JSON route. fast-check with
// a fixed seed generates bodies (arbitrary JSON, mutations of each route's example with hostile
// keys and values, prototype-pollution shapes, and text that isn't JSON). Targets: no answer ≥ 500,
// no facilitator call for a body that fails validation, no prototype pollution, RSS growth < 50 MB.
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { helperOperations } from '../../src/operations/helperOperations.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { bodiesFor, type Body, type Json } from '../fixtures/fuzzBodies.js';
import { maximalFreeRequests } from '../fixtures/maximalFreeRequests.js';
import { figure, variant } from './harness.js';
import type { FuzzReport } from './support/fuzzTarget.js';
import { childEntryOf } from '../support/childEntry.js';

const SEED = 20_260_701;
const BODIES = variant(1_000, 10_000);
const CONCURRENCY = 8;

let target: ChildProcess;
let url = '';
let required: PaymentRequired;

/** Asks the service process what it saw (after a full GC there). */
function report(): Promise<FuzzReport> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no report from the fuzz target within 10 s')), 10_000);
    const onMessage = (message: { report?: FuzzReport }) => {
      if (!message.report) return;
      clearTimeout(timer);
      target.off('message', onMessage);
      resolve(message.report);
    };
    target.on('message', onMessage);
    target.send({ report: true });
  });
}

before(
  async () => {
    const entry = childEntryOf(new URL('./support/fuzzTarget.ts', import.meta.url));
    target = fork(entry.path, {
      execArgv: [...entry.execArgv, '--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the fuzz target did not start within 30 s')), 30_000);
      target.once('message', (message: { url?: string }) => {
        clearTimeout(timer);
        if (message.url) resolve(message.url);
        else reject(new Error('unexpected first message'));
      });
      target.once('exit', (code) => reject(new Error(`the fuzz target exited (${code})`)));
    });
    const challenge = await fetch(`${url}/v1/invoice.pdf`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(EXAMPLE_INVOICE),
    });
    required = decodePaymentRequiredHeader(challenge.headers.get('PAYMENT-REQUIRED')!);
  },
  { timeout: 40_000 },
);
after(async () => {
  if (target?.connected) target.disconnect();
  if (target && target.exitCode === null) {
    const exited = new Promise((resolve) => target.once('exit', resolve));
    const timer = setTimeout(() => target.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
});

/** A PAYMENT-SIGNATURE that passes every check of ours (only the facilitator could refuse it), with a fresh nonce. */
function paymentHeader(): { header: string; nonce: string } {
  const offer = required.accepts[0]!;
  const nonce = `0x${randomBytes(32).toString('hex')}`;
  const payload = {
    x402Version: 2,
    resource: required.resource,
    accepted: offer,
    payload: {
      // Smart-account length: a plain 65-byte one by nobody would be refused before verify
      // (signerCheck.ts), and this test is about reaching verify only with valid bodies.
      signature: `0x${'ab'.repeat(97)}`,
      authorization: {
        from: `0x${randomBytes(20).toString('hex')}`,
        to: offer.payTo,
        value: offer.amount,
        validAfter: '0',
        validBefore: String(Math.floor(Date.now() / 1000) + 300),
        nonce,
      },
    },
  };
  return { header: encodePaymentSignatureHeader(payload as never), nonce };
}

// --- the run ------------------------------------------------------------------------------------

/** Runs the tasks with at most `limit` at a time. */
async function pool<T>(items: readonly T[], limit: number, run: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        await run(items[index]!, index);
      }
    }),
  );
}

test(
  '6 fuzz: no 5xx, no facilitator call for an invalid body, no prototype pollution, bounded memory',
  { timeout: variant(120_000, 900_000) },
  async () => {
    const routes = [
      { name: 'validate', path: '/v1/invoice/validate', example: EXAMPLE_INVOICE as unknown as Json, paid: false },
      { name: 'paid', path: '/v1/invoice.pdf', example: EXAMPLE_INVOICE as unknown as Json, paid: true },
      ...helperOperations().map((operation) => ({
        name: operation.operationId,
        path: operation.path as string,
        example: operation.request!.example as Json,
        paid: false,
      })),
    ];
    // One sample per route, each from the fixed seed (a different path of the same seed per route).
    const samples = routes.map((route, i) => fc.sample(bodiesFor(route.example), { seed: SEED + i, numRuns: BODIES }));

    const statusCounts = new Map<string, Map<number, number>>(routes.map((route) => [route.name, new Map()]));
    const serverErrors: string[] = [];
    const invalidVerified: string[] = [];
    const sentNonces = new Map<string, number>(); // nonce → status, for paid requests
    const send = async (route: (typeof routes)[number], body: Body) => {
      const payment = route.paid ? paymentHeader() : undefined;
      const response = await fetch(`${url}${route.path}`, {
        method: 'POST',
        headers: {
          'content-type': body.contentType,
          ...(body.encoded ? { 'content-encoding': body.encoded.label } : {}),
          ...(payment ? { 'PAYMENT-SIGNATURE': payment.header } : {}),
        },
        body: body.encoded ? new Uint8Array(body.encoded.bytes) : body.text,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      const counts = statusCounts.get(route.name)!;
      counts.set(response.status, (counts.get(response.status) ?? 0) + 1);
      if (response.status >= 500)
        serverErrors.push(`${route.name} ${response.status} ${text.slice(0, 120)} ← ${body.text.slice(0, 120)}`);
      if (response.status >= 500 && process.env.FUZZ_DUMP)
        (await import('node:fs')).appendFileSync(
          process.env.FUZZ_DUMP,
          JSON.stringify({ route: route.path, body: body.text, contentType: body.contentType }) + '\n',
        );
      if (payment) sentNonces.set(payment.nonce, response.status);
    };

    const started = performance.now();
    const jobs = samples.flatMap((bodies, r) => bodies.map((body, i) => ({ route: routes[r]!, body, i })));
    jobs.sort((a, b) => a.i - b.i); // interleave the routes
    const warmup = jobs.slice(0, 300);
    await pool(warmup, CONCURRENCY, ({ route, body }) => send(route, body));
    // The free routes compute on a worker thread (src/compute): a second V8 heap that grows to its
    // working set (about 50 MB above an idle worker, measured 2026-11-24) and that the GC before each
    // report doesn't reach. Maximal bodies bring it there before the baseline, so that what the
    // bound measures is growth (a leak), not the worker settling in.
    await pool(Array.from({ length: 10 }, () => maximalFreeRequests()).flat(), CONCURRENCY, async ({ path, body }) => {
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
      assert.equal(response.status, 200, `warm-up ${path}: ${await response.text()}`);
    });
    const baseline = await report();
    await pool(jobs.slice(warmup.length), CONCURRENCY, ({ route, body }) => send(route, body));
    const end = await report();
    const seconds = (performance.now() - started) / 1000;
    const rssGrowth = end.rssMb - baseline.rssMb;

    // 402 means the body validated and the payment went on to verify; no other answer may have.
    const verified = new Set(end.verified);
    for (const [nonce, status] of sentNonces)
      if (status !== 402 && verified.has(nonce)) invalidVerified.push(`${status} for nonce ${nonce}`);
    const polluted = end.polluted || ({} as Record<string, unknown>).polluted !== undefined;
    const summary = [...statusCounts]
      .map(
        ([name, counts]) =>
          `${name} ${[...counts]
            .sort(([a], [b]) => a - b)
            .map(([status, n]) => `${n}×${status}`)
            .join(' ')}`,
      )
      .join('; ');
    figure(
      '6 fuzz',
      `${BODIES} bodies per route × ${routes.length} routes (seed ${SEED}) = ${jobs.length} requests in ${seconds.toFixed(1)} s: ${serverErrors.length} answers ≥ 500, ` +
        `${invalidVerified.length} facilitator calls for invalid bodies (${verified.size} verify calls, each for a valid body), ${end.settles} settles, ${end.renders} renders, ` +
        `prototype pollution: ${polluted || end.prototypesChanged ? 'YES' : 'none'}, service RSS ${baseline.rssMb.toFixed(0)} → ${end.rssMb.toFixed(0)} MB (growth ${rssGrowth.toFixed(1)} MB, heap ${baseline.heapUsedMb.toFixed(0)} → ${end.heapUsedMb.toFixed(0)} MB); ${summary}`,
    );
    assert.deepEqual(serverErrors.slice(0, 5), []);
    assert.deepEqual(invalidVerified.slice(0, 5), []);
    assert.equal(end.settles, 0);
    // A render starts alongside verify, so only for bodies that went on to verify (and was thrown away).
    assert.ok(end.renders <= verified.size, `${end.renders} renders for ${verified.size} verify calls`);
    assert.equal(polluted, false);
    assert.equal(end.prototypesChanged, false);
    assert.ok(rssGrowth < 50, `RSS grew by ${rssGrowth.toFixed(1)} MB`);
    assert.ok((statusCounts.get('paid')!.get(402) ?? 0) > 0, 'some fuzzed bodies are valid and reach verify');
  },
);
