/**
 * Render benchmark: `npx tsx bench/render.ts`. In one run, on this machine:
 *   service  the real app over HTTP on loopback: POST /v1/invoice.pdf (parse, validate, totals,
 *            render; the route priced at 0 so the payment round trip is left out), pool of 2 pages
 *   floor    page.setContent + page.pdf of the same HTML with the same options on warm pages
 *            (no queue, metadata or validation), the raw floor
 *   floor-lean  the same with the service's own two print calls (Page.setDocumentContent +
 *            Page.printToPDF, src/render/printPage.ts): a stricter floor
 *   naive    a browser launched per request (page.setContent + page.pdf), same binary as the service
 *   naive-full  the same with Debian's full Chromium, what `puppeteer.launch()` users get (when
 *            the service runs the headless shell and the full browser is installed)
 *   http     optional: POST to a running server (BENCH_HTTP_URL, see bench/targets.ts)
 *   paid     the paid request on the local chain (bench/paid.ts): paid p50 against its own render,
 *            verify and settle p50, for 1 and 200 lines, with the local facilitator and with verify
 *            delayed as by a production one (BENCH_PAID_SAMPLES, BENCH_PAID_VERIFY_DELAY_MS)
 *   service-en16931, factur-x, cii-xml, ubl-xml  the same app's e-invoice routes: the
 *            Factur-X PDF/A-3 against the plain PDF of the same invoice (countries and VAT ids
 *            added), and the two XML routes
 * for 1-, 20- and 200-line invoices: p50/p95 latency, throughput at concurrency 1/2/4 (median of
 * BENCH_ROUNDS rounds), peak memory of the browser processes (summed PSS, and RSS) and of Node,
 * ratios against the baselines, and the browser's memory over 500 renders on one browser (sampled
 * all along, by windows of 100 renders). Peak memory is sampled in a phase of its own after the
 * latency and throughput samples, never during them. The p50s are also drawn as an SVG
 * chart, bench/results/render-p50.svg (BENCH_OUT moves it). Service, floors (and http) run side by side, alternating
 * sample by sample and round by round. Sample counts come from the environment (BENCH_SAMPLES,
 * BENCH_CALLS, BENCH_NAIVE_SAMPLES, BENCH_NAIVE_CALLS, BENCH_MEMORY_RENDERS, BENCH_ROUNDS, or
 * BENCH_SCALE=0.25 to scale them all, bench/scale.ts; BENCH_ONLY=latency or memory for one half, einvoice for the
 * e-invoice targets alone); the defaults
 * take about 7 minutes on 2 cores.
 */
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { InvoiceInput } from '../src/invoice/schema.js';
import { TAGGED_DEFAULT } from '../src/render/renderDefaults.js';
import { invoiceWithItems } from '../test/fixtures/invoices.js';
import { latencies, percentile, throughput } from './measure.js';
import { findChromium } from '../src/render/chromiumPath.js';
import { samplePeakInWorker } from './peakSampler.js';
import { browserMemory, nodeMemory, type Memory } from './processMemory.js';
import { paidLatency, type PaidResult } from './paid.js';
import { startLocalPaymentNetwork } from '../src/payment/local/localPaymentNetwork.js';
import {
  fmt,
  log,
  report,
  reportEInvoice,
  reportMemory,
  reportPaid,
  CONCURRENCY,
  SIZES,
  writeChart,
  type MemoryRun,
  type Size,
  type SizeResult,
  type TargetResult,
} from './renderReport.js';
import { BENCH_SCALE, scaled } from './scale.js';
import {
  en16931Body,
  floorTarget,
  httpTarget,
  naiveTarget,
  routeTarget,
  serviceTarget,
  type BenchTarget,
} from './targets.js';

const number = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number`);
  return value;
};
const counts = (name: string, defaults: Record<Size, number>): Record<Size, number> => {
  const override = process.env[name];
  return Object.fromEntries(
    SIZES.map((size) => [size, scaled(override ? Number(override) : defaults[size])]),
  ) as Record<Size, number>;
};
const SAMPLES = counts('BENCH_SAMPLES', { 1: 40, 20: 30, 200: 16 });
// Calls per throughput round: a few seconds of sustained load at the best concurrency, so that
// the start and the tail of a round (fewer renders in flight) weigh little. Rounds of 60 one-line
// calls (under a second) measured the service 0.84× the floor where rounds of 240 measured 0.89×.
const CALLS = counts('BENCH_CALLS', { 1: 200, 20: 120, 200: 24 });
const NAIVE_SAMPLES = counts('BENCH_NAIVE_SAMPLES', { 1: 5, 20: 5, 200: 4 });
const NAIVE_CALLS = counts('BENCH_NAIVE_CALLS', { 1: 4, 20: 4, 200: 4 });
const MEMORY_RENDERS = scaled(number('BENCH_MEMORY_RENDERS', 500));
const MEMORY_WINDOW = 100;
/** Throughput rounds per target and concurrency; the median counts (one noisy second can't decide). */
const ROUNDS = scaled(number('BENCH_ROUNDS', 3));
// Scaled like the samples: at the bench tier's tiny scale one warm-up round per target and size
// still runs every path (3 at scale 1, as before).
const WARMUP = scaled(3);
/**
 * A naive target launches a browser per render, so its warm-up round warms only Node's side; none at
 * the bench tier's tiny scale (each naive-full launch cost ~1.5 s of CPU there), one at scale 1.
 */
const NAIVE_WARMUP = scaled(1, 0);
/** Paid requests per size on the local chain (each signs a fresh authorization and settles on anvil). */
const PAID_SAMPLES = scaled(number('BENCH_PAID_SAMPLES', 30));
/** The second paid variant: verify delayed as by a production facilitator (0: skip it). */
const PAID_VERIFY_DELAY_MS = number('BENCH_PAID_VERIFY_DELAY_MS', 150);
/**
 * BENCH_ONLY=latency, paid or memory runs one part (e.g. a long memory run: BENCH_ONLY=memory
 * BENCH_MEMORY_RENDERS=2500); einvoice runs the e-invoice targets alone (the plain PDF of the same
 * invoice, Factur-X, the two XML routes), for tighter e-invoice figures in less time.
 */
const ONLY = process.env.BENCH_ONLY ?? 'all';
/** Where the chart goes (bench/results/ is ignored by git). */
const OUT_DIR = process.env.BENCH_OUT ?? join(import.meta.dirname, 'results');
if (!['all', 'latency', 'paid', 'memory', 'einvoice'].includes(ONLY))
  throw new Error('BENCH_ONLY must be latency, paid, memory or einvoice');

const BODIES: Record<Size, InvoiceInput> = {
  1: invoiceWithItems(1),
  20: invoiceWithItems(20),
  200: invoiceWithItems(200),
};

/**
 * Measures targets side by side: samples and throughput runs alternate between them, so drift on
 * a noisy machine (other load, CPU frequency) hits all of them alike and the ratios stay fair.
 */
async function measure(
  targets: BenchTarget[],
  samples: Record<Size, number>,
  calls: Record<Size, number>,
  warmup = WARMUP,
): Promise<TargetResult[]> {
  const results = targets.map((target) => ({
    name: target.name,
    sizes: {} as Record<Size, SizeResult>,
    peak: undefined as unknown as Memory,
  }));
  for (const size of SIZES) {
    const body = BODIES[size];
    const bytes = targets.map(() => 0);
    for (const [index, target] of targets.entries()) {
      for (let round = 0; round < warmup; round++) bytes[index] = await target.render(body);
    }
    const times = targets.map((): number[] => []);
    for (let sample = 0; sample < samples[size]; sample++) {
      for (const [index, target] of targets.entries())
        times[index]!.push(
          ...(await latencies(1, async () => {
            bytes[index] = await target.render(body);
          })),
        );
    }
    const runs = targets.map((): Record<number, number[]> => Object.fromEntries(CONCURRENCY.map((c) => [c, []])));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [at, concurrency] of CONCURRENCY.entries()) {
        // As many callers as calls or more (the bench tier's tiny scale, never scale 1's counts):
        // every call starts at once, as in the round just measured at the lower concurrency, so
        // that round counts for this one too instead of launching the same renders again.
        const lower = CONCURRENCY[at - 1];
        for (const [index, target] of targets.entries())
          runs[index]![concurrency]!.push(
            lower !== undefined && lower >= calls[size]
              ? runs[index]![lower]!.at(-1)!
              : concurrency === 1 && calls[size] === 1
                ? // A round of one call by one caller is one sequential call, which the latency
                  // samples above just timed (the bench tier's tiny scale, never scale 1's counts):
                  // its rate is counted instead of rendering again (a naive target's call is a
                  // browser launch, 0.3-0.8 s of CPU).
                  1000 / times[index]!.at(-1)!
                : await throughput(calls[size], concurrency, () => target.render(body)),
          );
      }
    }
    const rates = runs.map(
      (run) => Object.fromEntries(CONCURRENCY.map((c) => [c, percentile(run[c]!, 50)])) as Record<number, number>,
    );
    results.forEach((result, index) => {
      result.sizes[size] = {
        p50: percentile(times[index]!, 50),
        p95: percentile(times[index]!, 95),
        throughput: rates[index]!,
        bytes: bytes[index]!,
      };
      log(`  ${result.name} ${size} lines: p50 ${fmt(result.sizes[size].p50)} ms`);
    });
  }
  // Peak memory in a phase of its own: reading /proc for every process of a browser costs system
  // time on the cores the latency and throughput above were measured on.
  for (const [index, target] of targets.entries()) results[index]!.peak = await peakMemory(target, calls);
  return results;
}

/**
 * Peak memory of a target's browser processes while it renders every size at the highest
 * concurrency: at least as many calls as that concurrency, unless the scale asks for fewer calls
 * (the bench tier's tiny scale: 4 browser launches per size and naive target took 31 s of the 150 s
 * this bench ran there on a loaded machine).
 */
async function peakMemory(target: BenchTarget, calls: Record<Size, number>): Promise<Memory> {
  const sampler = samplePeakInWorker(() => (target.browserPid ? target.browserPid() : 'all'));
  try {
    for (const size of SIZES)
      await throughput(
        Math.max(Math.min(CONCURRENCY.at(-1)!, calls[size]), Math.round(calls[size] / 2)),
        CONCURRENCY.at(-1)!,
        () => target.render(BODIES[size]),
      );
  } catch (error) {
    await sampler.stop();
    throw error;
  }
  return sampler.stop();
}

/**
 * The browser's memory over one browser life: MEMORY_RENDERS renders of mixed sizes at concurrency
 * 2, PSS sampled every 250 ms and grouped by windows of MEMORY_WINDOW renders. A leak shows as
 * windows that keep rising; caches filling up (fonts, glyphs, layout) show as a rise during the
 * first window and then a plateau. Both the cold figure and the windows are reported.
 */
async function memoryOverRenders(): Promise<MemoryRun> {
  // One browser for the whole run: retirement would hide growth (the warm-up renders count too).
  const target = await serviceTarget({ maxRendersPerBrowser: MEMORY_RENDERS + SIZES.length + 1 });
  for (const size of SIZES) await target.render(BODIES[size]);
  const cold = { browser: browserMemory(), node: nodeMemory() };
  let done = 0;
  const samples: { renders: number; pssMiB: number }[] = [];
  const timer = setInterval(() => samples.push({ renders: done, pssMiB: browserMemory().pssMiB }), 250);
  let next = 0;
  await throughput(MEMORY_RENDERS, 2, async () => {
    await target.render(BODIES[SIZES[next++ % SIZES.length]!]);
    done++;
  });
  clearInterval(timer);
  const after = { browser: browserMemory(), node: nodeMemory() };
  const windows = Array.from({ length: Math.ceil(MEMORY_RENDERS / MEMORY_WINDOW) }, (_, index) => {
    const inWindow = samples
      .filter((sample) => Math.floor(sample.renders / MEMORY_WINDOW) === index)
      .map((sample) => sample.pssMiB);
    return {
      from: index * MEMORY_WINDOW + 1,
      to: Math.min(MEMORY_RENDERS, (index + 1) * MEMORY_WINDOW),
      median: percentile(inWindow, 50),
      max: Math.max(...inWindow),
    };
  });
  const restarts = target.renderer.stats().restarts;
  await target.close();
  return { cold, after, windows, restarts };
}

async function main() {
  const started = performance.now();
  log(
    `render benchmark: ${cpus().length} CPUs, Node ${process.versions.node}, tagged=${TAGGED_DEFAULT}, scale ${BENCH_SCALE}`,
  );
  if (ONLY === 'einvoice') return reportEInvoice(await eInvoiceOnly());
  if (ONLY === 'all' || ONLY === 'latency') {
    const results = await latencyAndThroughput();
    report(results);
    writeChart(results, OUT_DIR);
  }
  if (ONLY === 'all' || ONLY === 'paid') reportPaid(await paid());
  if (ONLY === 'all' || ONLY === 'memory') {
    log(`memory over ${MEMORY_RENDERS} renders...`);
    reportMemory(await memoryOverRenders(), MEMORY_RENDERS);
  }
  log(`\ntotal bench time ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** The e-invoice targets alone on the service's app (BENCH_ONLY=einvoice). */
async function eInvoiceOnly(): Promise<TargetResult[]> {
  log(
    'e-invoice routes only: plain PDF of the same invoice, Factur-X, CII and UBL XML (one app, pool of 2), alternating...',
  );
  const service = await serviceTarget();
  const [plain, facturX, ...xml] = eInvoiceTargets(service.baseUrl);
  const results = [...(await measure([plain!, facturX!], SAMPLES, CALLS)), ...(await measureXml(xml))];
  for (const target of [plain!, facturX!, ...xml]) await target.close();
  await service.close();
  return results;
}

/**
 * The XML routes never touch Chromium, so they are measured after the PDF targets rather than
 * interleaved with them: next to a render they would mostly measure the CPU that Chromium and the
 * PDF buffers' garbage collection are still using on two cores.
 */
function measureXml(targets: BenchTarget[]): Promise<TargetResult[]> {
  log('  XML routes (after the PDF targets, Chromium idle)...');
  return measure(targets, SAMPLES, CALLS);
}

function eInvoiceTargets(baseUrl: string): BenchTarget[] {
  return [
    routeTarget('service-en16931', `${baseUrl}/v1/invoice.pdf`, en16931Body),
    routeTarget('factur-x', `${baseUrl}/v1/e-invoice/factur-x.pdf`, en16931Body),
    routeTarget('cii-xml', `${baseUrl}/v1/e-invoice/cii.xml`, en16931Body),
    routeTarget('ubl-xml', `${baseUrl}/v1/e-invoice/ubl.xml`, en16931Body),
  ];
}

async function latencyAndThroughput(): Promise<TargetResult[]> {
  const results: TargetResult[] = [];

  log('service (POST /v1/invoice.pdf over HTTP, pool of 2), floor and floor-lean (4 warm pages each), alternating...');
  const service = await serviceTarget();
  const floor = await floorTarget(Math.max(...CONCURRENCY), 'standard');
  const floorLean = await floorTarget(Math.max(...CONCURRENCY), 'lean');
  // The e-invoice routes on the same app and pool: Factur-X against the plain PDF of the very same
  // invoice (with the countries and VAT ids EN 16931 needs), alternating with the others; the two
  // XML routes afterwards (measureXml).
  const eInvoice = eInvoiceTargets(service.baseUrl);
  const compared: BenchTarget[] = [service, floor, floorLean, ...eInvoice.slice(0, 2)];
  if (process.env.BENCH_HTTP_URL) {
    log(`  and http (${process.env.BENCH_HTTP_URL})`);
    const headers = process.env.BENCH_HTTP_HEADERS
      ? (JSON.parse(process.env.BENCH_HTTP_HEADERS) as Record<string, string>)
      : {};
    compared.push(httpTarget(process.env.BENCH_HTTP_URL, headers));
  }
  results.push(...(await measure(compared, SAMPLES, CALLS)));
  results.push(...(await measureXml(eInvoice.slice(2))));
  const serviceStats = service.renderer.stats();
  log(
    `  service: ${serviceStats.renders} renders, ${serviceStats.restarts} browser replacements (BROWSER_MAX_RENDERS)`,
  );
  for (const target of eInvoice) await target.close();
  await service.close();
  await floor.close();
  await floorLean.close();

  const naives = [naiveTarget()];
  const full = fullChromium();
  if (full) naives.push(naiveTarget({ name: 'naive-full', executablePath: full }));
  log(`naive (a browser per request: ${naives.map((naive) => naive.name).join(', ')})...`);
  results.push(...(await measure(naives, NAIVE_SAMPLES, NAIVE_CALLS, NAIVE_WARMUP)));
  for (const naive of naives) await naive.close();
  return results;
}

async function paid(): Promise<PaidResult[]> {
  const bodies: [number, InvoiceInput][] = [1, 200].map((size) => [size, BODIES[size as Size]]);
  // One local network for both variants (each with a buyer of its own): bench/paid.ts says why.
  const net = await startLocalPaymentNetwork({ chainPort: 0, facilitatorPort: 0 });
  try {
    log(`paid (POST /v1/invoice.pdf with a fresh x402 payment on the local chain, ${PAID_SAMPLES} per size)...`);
    const results = await paidLatency(net, bodies, PAID_SAMPLES, { buyer: 1 });
    if (PAID_VERIFY_DELAY_MS > 0) {
      log(`paid with verify delayed by ${PAID_VERIFY_DELAY_MS} ms (a production facilitator's verify)...`);
      results.push(
        ...(await paidLatency(net, bodies, PAID_SAMPLES, { verifyDelayMs: PAID_VERIFY_DELAY_MS, buyer: 2 })),
      );
    }
    return results;
  } finally {
    await net.close();
  }
}

/** Debian's full Chromium, when the service runs something else (the headless shell) and it is installed. */
function fullChromium(): string | undefined {
  try {
    const full = findChromium(undefined, ['/usr/bin/chromium', '/usr/lib/chromium/chromium']);
    return full.includes('headless') || findChromium() === full ? undefined : full;
  } catch {
    return undefined;
  }
}

await main();
