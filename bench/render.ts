/**
 * Render benchmark: `npx tsx bench/render.ts`. In one run, on this machine:
 *   service  the real app over HTTP on loopback: POST /v1/invoice.pdf (parse, validate, totals,
 *            render; the route priced at 0 so the payment round trip is left out), pool of 2 pages
 *   floor    page.setContent + page.pdf of the same HTML, same options, on warm pages (the best
 *            Chromium can do; no queue, no metadata, no validation)
 *   naive    a browser launched per request
 *   http     optional: POST to a running server (BENCH_HTTP_URL, see bench/targets.ts)
 * for 1-, 20- and 200-line invoices: p50/p95 latency, throughput at concurrency 1/2/4, peak memory
 * of the browser processes (summed PSS, and RSS) and of Node, ratios against the baselines, and
 * memory before/after 500 renders on one browser. Service, floor (and http) run side by side,
 * alternating sample by sample. Sample counts come from the environment (BENCH_SAMPLES,
 * BENCH_CALLS, BENCH_NAIVE_SAMPLES, BENCH_NAIVE_CALLS, BENCH_MEMORY_RENDERS, or BENCH_SCALE=0.25
 * to scale them all); the defaults take about 2.5 minutes on 2 cores.
 */
import { cpus } from 'node:os';
import type { InvoiceInput } from '../src/invoice/schema.js';
import { TAGGED_DEFAULT } from '../src/render/renderer.js';
import { invoiceWithItems } from '../test/fixtures/invoices.js';
import { latencies, percentile, throughput } from './measure.js';
import { browserMemory, descendants, nodeMemory, samplePeak, type Memory } from './processMemory.js';
import { floorTarget, httpTarget, naiveTarget, serviceTarget, type BenchTarget } from './targets.js';

const SIZES = [1, 20, 200] as const;
type Size = (typeof SIZES)[number];
const CONCURRENCY = [1, 2, 4] as const;

const number = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number`);
  return value;
};
/** Scale all sample counts at once: BENCH_SCALE=0.25 for a quick look, 2 for tighter figures. */
const scale = number('BENCH_SCALE', 1);
const counts = (name: string, defaults: Record<Size, number>): Record<Size, number> => {
  const override = process.env[name];
  return Object.fromEntries(SIZES.map((size) => [size, Math.max(1, Math.round((override ? Number(override) : defaults[size]) * scale))])) as Record<Size, number>;
};
const SAMPLES = counts('BENCH_SAMPLES', { 1: 40, 20: 30, 200: 16 });
const CALLS = counts('BENCH_CALLS', { 1: 40, 20: 24, 200: 12 });
const NAIVE_SAMPLES = counts('BENCH_NAIVE_SAMPLES', { 1: 5, 20: 5, 200: 4 });
const NAIVE_CALLS = counts('BENCH_NAIVE_CALLS', { 1: 4, 20: 4, 200: 4 });
const MEMORY_RENDERS = Math.round(number('BENCH_MEMORY_RENDERS', 500));
const WARMUP = 3;

const BODIES: Record<Size, InvoiceInput> = { 1: invoiceWithItems(1), 20: invoiceWithItems(20), 200: invoiceWithItems(200) };

interface SizeResult {
  p50: number;
  p95: number;
  throughput: Record<number, number>;
  bytes: number;
}

interface TargetResult {
  name: string;
  sizes: Record<Size, SizeResult>;
  peak: Memory;
}

/**
 * Measures targets side by side: samples and throughput runs alternate between them, so drift on
 * a noisy machine (other load, CPU frequency) hits all of them alike and the ratios stay fair.
 */
async function measure(targets: BenchTarget[], samples: Record<Size, number>, calls: Record<Size, number>, warmup = WARMUP): Promise<TargetResult[]> {
  const everything = () => descendants(process.pid);
  const peaks = targets.map((target) => samplePeak(target.processes ? () => target.processes!() : everything));
  const results = targets.map((target) => ({ name: target.name, sizes: {} as Record<Size, SizeResult>, peak: undefined as unknown as Memory }));
  for (const size of SIZES) {
    const body = BODIES[size];
    const bytes = targets.map(() => 0);
    for (const [index, target] of targets.entries()) {
      for (let round = 0; round < warmup; round++) bytes[index] = await target.render(body);
    }
    const times = targets.map((): number[] => []);
    for (let sample = 0; sample < samples[size]; sample++) {
      for (const [index, target] of targets.entries()) times[index]!.push(...(await latencies(1, () => target.render(body))));
    }
    const rates = targets.map((): Record<number, number> => ({}));
    for (const concurrency of CONCURRENCY) {
      for (const [index, target] of targets.entries()) rates[index]![concurrency] = await throughput(calls[size], concurrency, () => target.render(body));
    }
    results.forEach((result, index) => {
      result.sizes[size] = { p50: percentile(times[index]!, 50), p95: percentile(times[index]!, 95), throughput: rates[index]!, bytes: bytes[index]! };
      log(`  ${result.name} ${size} lines: p50 ${fmt(result.sizes[size].p50)} ms`);
    });
  }
  results.forEach((result, index) => (result.peak = peaks[index]!.stop()));
  return results;
}

/** Memory of one browser life: before and after MEMORY_RENDERS renders of mixed sizes at concurrency 2. */
async function memoryOverRenders() {
  // One browser for the whole run: retirement would hide growth (the warm-up renders count too).
  const target = await serviceTarget({ maxRendersPerBrowser: MEMORY_RENDERS + SIZES.length + 1 });
  for (const size of SIZES) await target.render(BODIES[size]);
  const before = { browser: browserMemory(), node: nodeMemory() };
  let next = 0;
  await throughput(MEMORY_RENDERS, 2, () => target.render(BODIES[SIZES[next++ % SIZES.length]!]));
  const after = { browser: browserMemory(), node: nodeMemory() };
  const restarts = target.renderer.stats().restarts;
  await target.close();
  return { before, after, restarts };
}

async function main() {
  const started = performance.now();
  log(`render benchmark: ${cpus().length} CPUs, Node ${process.versions.node}, tagged=${TAGGED_DEFAULT}, scale ${scale}`);
  const results: TargetResult[] = [];

  log('service (POST /v1/invoice.pdf over HTTP, pool of 2) and floor (setContent + pdf on 4 warm pages), alternating...');
  const service = await serviceTarget();
  const floor = await floorTarget(Math.max(...CONCURRENCY));
  const compared: BenchTarget[] = [service, floor];
  if (process.env.BENCH_HTTP_URL) {
    log(`  and http (${process.env.BENCH_HTTP_URL})`);
    const headers = process.env.BENCH_HTTP_HEADERS ? (JSON.parse(process.env.BENCH_HTTP_HEADERS) as Record<string, string>) : {};
    compared.push(httpTarget(process.env.BENCH_HTTP_URL, headers));
  }
  results.push(...(await measure(compared, SAMPLES, CALLS)));
  await service.close();
  await floor.close();

  log('naive (a browser per request)...');
  const naive = naiveTarget();
  results.push(...(await measure([naive], NAIVE_SAMPLES, NAIVE_CALLS, 1)));
  await naive.close();

  log(`memory over ${MEMORY_RENDERS} renders...`);
  const memory = await memoryOverRenders();

  report(results, memory);
  log(`\ntotal bench time ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

function report(results: TargetResult[], memory: Awaited<ReturnType<typeof memoryOverRenders>>) {
  const byName = (name: string) => results.find((result) => result.name === name)!;
  const service = byName('service');
  const floor = byName('floor');
  const naive = byName('naive');

  out('\nLatency (ms) and throughput (PDF/s)');
  out(row(['lines', 'target', 'p50', 'p95', 'tput c=1', 'c=2', 'c=4', 'PDF KB']));
  for (const size of SIZES) {
    for (const result of results) {
      const r = result.sizes[size];
      out(row([String(size), result.name, fmt(r.p50), fmt(r.p95), ...CONCURRENCY.map((c) => r.throughput[c]!.toFixed(1)), (r.bytes / 1024).toFixed(0)]));
    }
  }

  out('\nRatios (same run)');
  out(row(['lines', 'service/floor p50', 'best tput service/floor', 'naive/service p50']));
  for (const size of SIZES) {
    const best = (result: TargetResult) => Math.max(...Object.values(result.sizes[size].throughput));
    out(
      row([
        String(size),
        ratio(service.sizes[size].p50 / floor.sizes[size].p50),
        ratio(best(service) / best(floor)),
        ratio(naive.sizes[size].p50 / service.sizes[size].p50),
      ]),
    );
  }

  out('\nPeak memory of each target\'s browser processes (naive: all its browsers at once)');
  out(row(['target', 'PSS MiB', 'RSS MiB', 'processes']));
  for (const result of results.filter((result) => result.name !== 'http')) {
    out(row([result.name, result.peak.pssMiB.toFixed(0), result.peak.rssMiB.toFixed(0), String(result.peak.processes)]));
  }
  const node = nodeMemory();
  out(`Node process: RSS ${node.rssMiB.toFixed(0)} MiB now, peak ${node.peakRssMiB.toFixed(0)} MiB`);

  out(`\nMemory over ${MEMORY_RENDERS} renders on one browser (mixed sizes, concurrency 2, ${memory.restarts} restarts)`);
  out(row(['', 'browser PSS MiB', 'browser RSS MiB', 'Node RSS MiB']));
  for (const [label, m] of [['before', memory.before], ['after', memory.after]] as const) {
    out(row([label, m.browser.pssMiB.toFixed(0), m.browser.rssMiB.toFixed(0), m.node.rssMiB.toFixed(0)]));
  }
}

const fmt = (ms: number) => ms.toFixed(0);
const ratio = (value: number) => `${value.toFixed(2)}×`;
const row = (cells: string[]) => cells.map((cell, index) => (index < 2 ? cell.padEnd(index === 0 ? 6 : 22) : cell.padStart(12))).join(' ');
const out = (line: string) => process.stdout.write(`${line}\n`);
const log = (line: string) => process.stderr.write(`${line}\n`);

await main();
