/**
 * What bench/render.ts prints: the tables of its targets per size (latency, throughput, ratios to
 * the floors), the paid request against its parts, the e-invoice routes, the browser's memory over
 * one browser life, and the SVG chart of the p50s.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { barChartSvg } from './chart.js';
import type { PaidResult } from './paid.js';
import { nodeMemory, type Memory } from './processMemory.js';
import { BENCH_SCALE } from './scale.js';

export const SIZES = [1, 20, 200] as const;
export type Size = (typeof SIZES)[number];
export const CONCURRENCY = [1, 2, 4] as const;

export interface SizeResult {
  p50: number;
  p95: number;
  throughput: Record<number, number>;
  bytes: number;
}

export interface TargetResult {
  name: string;
  sizes: Record<Size, SizeResult>;
  peak: Memory;
}

/** The browser's memory over one browser life (render.ts memoryOverRenders). */
export interface MemoryRun {
  cold: { browser: Memory; node: ReturnType<typeof nodeMemory> };
  after: { browser: Memory; node: ReturnType<typeof nodeMemory> };
  windows: { from: number; to: number; median: number; max: number }[];
  restarts: number;
}

/**
 * Paid p50 against its own parts, each measured in the same requests (bench/paid.ts). p50s of the
 * parts don't add up to the p50 of a whole (the slow verify and the slow render are not always the
 * same request), so the per-request overhead is shown too: paid − (max(verify, render) + settle).
 */
export function reportPaid(results: PaidResult[]) {
  out(
    '\nPaid request p50 (ms): verify and render side by side, then settle; target paid ≤ max(verify, render) + settle + 5',
  );
  out(row(['lines', 'target', 'paid', 'render', 'verify', 'settle', 'in series', 'target', 'met', 'overhead/req']));
  for (const result of results) {
    const target = Math.max(result.verify, result.render) + result.settle + 5;
    const series = result.verify + result.render + result.settle;
    const cells = [
      fmt(result.paid),
      fmt(result.render),
      fmt(result.verify),
      fmt(result.settle),
      fmt(series),
      fmt(target),
      result.paid <= target ? 'yes' : 'no',
      result.overhead.toFixed(1),
    ];
    out(row([String(result.lines), result.name, ...cells]));
  }
}

export function report(results: TargetResult[]) {
  const byName = (name: string) => results.find((result) => result.name === name)!;
  const service = byName('service');
  const floor = byName('floor');
  const floorLean = byName('floor-lean');
  const naive = byName('naive');
  const naiveFull = results.find((result) => result.name === 'naive-full');

  out('\nLatency (ms) and throughput (PDF/s)');
  out(row(['lines', 'target', 'p50', 'p95', 'tput c=1', 'c=2', 'c=4', 'PDF KB']));
  for (const size of SIZES) {
    for (const result of results) {
      const r = result.sizes[size];
      out(
        row([
          String(size),
          result.name,
          fmt(r.p50),
          fmt(r.p95),
          ...CONCURRENCY.map((c) => r.throughput[c]!.toFixed(1)),
          (r.bytes / 1024).toFixed(0),
        ]),
      );
    }
  }

  out('\nRatios (same run)');
  out(
    row([
      'lines',
      'service/floor p50',
      'best tput service/floor',
      'naive/service p50',
      ...(naiveFull ? ['naive-full/service p50'] : []),
      'p50 /floor-lean',
      'tput /floor-lean',
    ]),
  );
  for (const size of SIZES) {
    const best = (result: TargetResult) => Math.max(...Object.values(result.sizes[size].throughput));
    out(
      row([
        String(size),
        ratio(service.sizes[size].p50 / floor.sizes[size].p50),
        ratio(best(service) / best(floor)),
        ratio(naive.sizes[size].p50 / service.sizes[size].p50),
        ...(naiveFull ? [ratio(naiveFull.sizes[size].p50 / service.sizes[size].p50)] : []),
        ratio(service.sizes[size].p50 / floorLean.sizes[size].p50),
        ratio(best(service) / best(floorLean)),
      ]),
    );
  }

  reportEInvoice(results);

  out("\nPeak memory of each target's browser processes (naive: all its browsers at once)");
  out(row(['target', 'PSS MiB', 'RSS MiB', 'processes']));
  for (const result of results.filter(
    (result) => !['http', 'service-en16931', 'factur-x', 'cii-xml', 'ubl-xml'].includes(result.name),
  )) {
    out(
      row([result.name, result.peak.pssMiB.toFixed(0), result.peak.rssMiB.toFixed(0), String(result.peak.processes)]),
    );
  }
  const node = nodeMemory();
  out(`Node process: RSS ${node.rssMiB.toFixed(0)} MiB now, peak ${node.peakRssMiB.toFixed(0)} MiB`);
}

export function reportEInvoice(results: TargetResult[]) {
  const byName = (name: string) => results.find((result) => result.name === name)!;
  const plainEn = results.find((result) => result.name === 'service-en16931');
  const facturX = results.find((result) => result.name === 'factur-x');
  if (plainEn && facturX) {
    out(
      '\nE-invoice routes (same run, same app and pool; target: Factur-X p50 ≤ 1.3× the plain PDF, XML p50 ≤ 5 ms at 200 lines)',
    );
    out(
      row([
        'lines',
        'factur-x/plain p50',
        'plain p50 ms',
        'factur-x p50 ms',
        'cii.xml p50 ms',
        'ubl.xml p50 ms',
        'factur-x KB',
        'plain KB',
      ]),
    );
    for (const size of SIZES) {
      out(
        row([
          String(size),
          ratio(facturX.sizes[size].p50 / plainEn.sizes[size].p50),
          fmt(plainEn.sizes[size].p50),
          fmt(facturX.sizes[size].p50),
          byName('cii-xml').sizes[size].p50.toFixed(1),
          byName('ubl-xml').sizes[size].p50.toFixed(1),
          (facturX.sizes[size].bytes / 1024).toFixed(0),
          (plainEn.sizes[size].bytes / 1024).toFixed(0),
        ]),
      );
    }
  }
}

export function reportMemory(memory: MemoryRun, renders: number) {
  out(
    `\nBrowser memory over ${renders} renders on one browser (mixed sizes, concurrency 2, ${memory.restarts} restarts)`,
  );
  out(
    `cold (after ${SIZES.length} renders): browser PSS ${memory.cold.browser.pssMiB.toFixed(0)} MiB, Node RSS ${memory.cold.node.rssMiB.toFixed(0)} MiB`,
  );
  out(row(['', 'renders', 'PSS median MiB', 'PSS max MiB']));
  for (const window of memory.windows)
    out(row(['', `${window.from}–${window.to}`, window.median.toFixed(0), window.max.toFixed(0)]));
  const first = memory.windows[0]!;
  const last = memory.windows.at(-1)!;
  out(
    `first → last window median: ${first.median.toFixed(0)} → ${last.median.toFixed(0)} MiB (${percentChange(first.median, last.median)}); ` +
      `cold → last window median: ${percentChange(memory.cold.browser.pssMiB, last.median)}; ` +
      `Node RSS ${memory.cold.node.rssMiB.toFixed(0)} → ${memory.after.node.rssMiB.toFixed(0)} MiB`,
  );
}

/** The SVG chart of service against the floors per size, in `outDir` (BENCH_OUT). */
export function writeChart(results: TargetResult[], outDir: string) {
  const shown = ['service', 'floor', 'floor-lean', 'factur-x'].flatMap((name) =>
    results.filter((result) => result.name === name),
  );
  const groups = SIZES.map((size) => ({
    label: `${size} line${size === 1 ? '' : 's'}`,
    bars: shown.map((result) => ({ name: result.name, value: result.sizes[size].p50 })),
  }));
  const svg = barChartSvg(
    `p50 latency per invoice size, service against the floors (${new Date().toISOString().slice(0, 10)}, scale ${BENCH_SCALE})`,
    'ms per PDF, p50; lower is better; each panel has its own scale',
    groups,
  );
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, 'render-p50.svg');
  writeFileSync(file, svg);
  log(`chart: ${file}`);
}

const percentChange = (from: number, to: number) =>
  `${to >= from ? '+' : ''}${(((to - from) / from) * 100).toFixed(0)}%`;
export const fmt = (ms: number) => ms.toFixed(0);
const ratio = (value: number) => `${value.toFixed(2)}×`;
const row = (cells: string[]) =>
  cells.map((cell, index) => (index < 2 ? cell.padEnd(index === 0 ? 6 : 22) : cell.padStart(12))).join(' ');
const out = (line: string) => process.stdout.write(`${line}\n`);
export const log = (line: string) => process.stderr.write(`${line}\n`);
