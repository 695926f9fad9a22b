/**
 * The batch (POST /v1/invoices.zip) against single requests, in one run: `npm run bench:batch`.
 *
 *  1. Free (every route priced at 0, so no payment round trip): N one-page invoices as N POST
 *     /v1/invoice.pdf at concurrency 2, against one POST /v1/invoices.zip of the same N. Runs
 *     alternate (singles, batch, singles, batch, …) so the shared machine's drift hits both; the
 *     figure is the throughput ratio batch / singles of the medians (target ≥ 0.9).
 *  2. Paid on the local chain (anvil + the local facilitator, as in `npm run bench`): N paid singles
 *     at concurrency 2 against one paid batch of N, each end to end as an agent does it (the 402,
 *     signing with @x402/fetch, the paid request, verify, render, settle).
 *  3. Peak memory of the largest batch the service takes (MAX_BATCH_ITEMS, src/batch/batchRequest.ts):
 *     the node process's RSS (sampled every 20 ms) and the PSS of this process tree (node + Chromium),
 *     against the same while idle.
 *
 * BENCH_BATCH_N sets N (default MAX_BATCH_ITEMS), BENCH_BATCH_ROUNDS the free rounds (default 3);
 * BENCH_SCALE scales both defaults and the largest batch.
 */
import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { x402Client } from '@x402/core/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { createApp } from '../src/app.js';
import { MAX_BATCH_ITEMS } from '../src/batch/batchRequest.js';
import { loadConfig } from '../src/config.js';
import { EXAMPLE_INVOICE } from '../src/invoice/example.js';
import { createLifecycle } from '../src/lifecycle.js';
import { createLogger } from '../src/logger.js';
import { startLocalPaymentNetwork } from '../src/payment/local/localPaymentNetwork.js';
import { startPayments } from '../src/payment/startPayments.js';
import { createRenderer, type Renderer } from '../src/render/renderer.js';
import { createService } from '../src/service.js';
import { paymentSettings } from '../src/settings.js';
import { samplePeakInWorker } from './peakSampler.js';
import { scaled } from './scale.js';

const N = Number(process.env.BENCH_BATCH_N ?? scaled(MAX_BATCH_ITEMS));
const ROUNDS = Number(process.env.BENCH_BATCH_ROUNDS ?? scaled(3));
const LARGEST = scaled(MAX_BATCH_ITEMS);
if (!(N >= 1 && N <= MAX_BATCH_ITEMS)) throw new Error(`BENCH_BATCH_N must be 1 to ${MAX_BATCH_ITEMS}`);
const FREE =
  'v1_invoice_pdf=0,v1_e_invoice_factur_x_pdf=0,v1_e_invoice_cii_xml=0,v1_e_invoice_ubl_xml=0,v1_invoices_zip=0';

const invoices = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ ...EXAMPLE_INVOICE, invoice_number: `BENCH-${i + 1}` }));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function listen(app: { listen: (port: number, host: string) => import('node:http').Server }) {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** POST over keep-alive node:http (cheaper on the shared cores than fetch); resolves with the answer's size. */
function post(agent: Agent, url: string, body: unknown): Promise<number> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      new URL(url),
      {
        method: 'POST',
        agent,
        timeout: 300_000,
        headers: { 'content-type': 'application/json', 'content-length': payload.length },
      },
      (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () =>
          response.statusCode === 200 ? resolve(bytes) : reject(new Error(`${url} answered ${response.statusCode}`)),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** `calls` run by `concurrency` callers; resolves with the wall time in ms. */
async function timed(calls: (() => Promise<unknown>)[], concurrency: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls.length) await calls[next++]!();
    }),
  );
  return performance.now() - started;
}

async function freeComparison(renderer: Renderer) {
  const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'production', PORT: '0', PRICES: FREE });
  const { app } = createApp({ config, logger: createLogger('silent'), renderer });
  const { server, url } = await listen(app);
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  try {
    const items = invoices(N);
    const singles = () =>
      timed(
        items.map((invoice) => () => post(agent, `${url}/v1/invoice.pdf`, invoice)),
        2,
      );
    const batch = () => timed([() => post(agent, `${url}/v1/invoices.zip`, { format: 'pdf', invoices: items })], 1);
    await singles(); // warm-up: pages, templates, JIT
    await batch();
    const times = { singles: [] as number[], batch: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      times.singles.push(await singles());
      times.batch.push(await batch());
    }
    const ratio = median(times.singles) / median(times.batch);
    process.stdout.write(
      `free, ${N} one-page invoices: ${N} singles at concurrency 2 median ${seconds(median(times.singles))} (${(N / (median(times.singles) / 1000)).toFixed(1)} invoices/s); one batch median ${seconds(median(times.batch))} (${(N / (median(times.batch) / 1000)).toFixed(1)} invoices/s); batch/singles throughput ${ratio.toFixed(2)}× (target ≥ 0.9×; ${ROUNDS} rounds alternating)\n`,
    );
    // 3. Peak memory of the largest batch, on the same app.
    const idle = await peakWhile(() => new Promise((resolve) => setTimeout(resolve, 1000)));
    const largest = invoices(LARGEST);
    let zipBytes = 0;
    const peak = await peakWhile(async () => {
      zipBytes = await post(agent, `${url}/v1/invoices.zip`, { format: 'pdf', invoices: largest });
    });
    process.stdout.write(
      `peak memory, ${LARGEST}-item batch (${(zipBytes / 1024).toFixed(0)} KiB ZIP): node RSS ${peak.nodeRssMiB.toFixed(0)} MiB (idle ${idle.nodeRssMiB.toFixed(0)} MiB), node + Chromium PSS ${peak.treePssMiB.toFixed(0)} MiB (idle ${idle.treePssMiB.toFixed(0)} MiB)\n`,
    );
  } finally {
    agent.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Peak RSS of this process (sampled every 20 ms) and PSS of its process tree while `work` runs. */
async function peakWhile(work: () => Promise<unknown>) {
  let nodeRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (nodeRss = Math.max(nodeRss, process.memoryUsage().rss)), 20);
  const tree = samplePeakInWorker(() => process.pid);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  const peak = await tree.stop();
  return { nodeRssMiB: nodeRss / 2 ** 20, treePssMiB: peak.pssMiB };
}

async function paidComparison(renderer: Renderer) {
  const net = await startLocalPaymentNetwork({ chainPort: 0, facilitatorPort: 0 });
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    NODE_ENV: 'production',
    PORT: '0',
    PUBLIC_BASE_URL: 'http://127.0.0.1',
    FACILITATOR_URL: net.facilitatorUrl,
    PAY_TO: net.payTo,
    LOCAL_TEST_CHAIN: 'on',
  });
  const payments = await startPayments(paymentSettings(config), { log: () => undefined });
  const { app } = createService({
    config,
    logger: createLogger('silent'),
    lifecycle: createLifecycle(),
    payments,
    renderer,
  });
  const { server, url } = await listen(app);
  try {
    const client = new x402Client().register(
      'eip155:*',
      new ExactEvmScheme(privateKeyToAccount(net.buyers[1]!.privateKey)),
    );
    const payingFetch = wrapFetchWithPayment(fetch, client);
    const buy = async (path: string, body: unknown) => {
      const response = await payingFetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(600_000),
      });
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    };
    const items = invoices(N);
    await buy('/v1/invoice.pdf', items[0]); // warm-up
    const balance = await net.balanceOf(net.payTo);
    const singles = await timed(
      items.map((invoice) => () => buy('/v1/invoice.pdf', invoice)),
      2,
    );
    const afterSingles = await net.balanceOf(net.payTo);
    const batch = await timed([() => buy('/v1/invoices.zip', { format: 'pdf', invoices: items })], 1);
    const afterBatch = await net.balanceOf(net.payTo);
    process.stdout.write(
      `paid on the local chain, ${N} invoices end to end (402, sign, pay, verify, render, settle): ${N} paid singles at concurrency 2 ${seconds(singles)} (${N} settlements, ${afterSingles - balance} atomic USDC); one paid batch ${seconds(batch)} (1 settlement, ${afterBatch - afterSingles} atomic USDC); batch ${(singles / batch).toFixed(2)}× faster\n`,
    );
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await payments.close();
    await net.close();
  }
}

const renderer = await createRenderer({ poolSize: 2 });
try {
  await freeComparison(renderer);
  await paidComparison(renderer);
} finally {
  await renderer.close();
}
