/**
 * Issue 49's ratio over several service instances (bench/templates.ts part `instances`): a stored
 * design (HOUSE_STYLE) on POST /v1/invoice.pdf against built-in classic, at 1, 20 and 200 lines,
 * on BENCH_INSTANCES (default 4; 1 at a tiny BENCH_SCALE) services started one after another, each with its own renderer
 * and Chromium. On one service the ratio sat on its own level: at 200 lines 1.12-1.18× in every
 * round of one instance and 0.95-0.97× on the next (docs/templates.md "Measured", 2026-12-07), so a
 * single instance's figure, however many pairs, measures that instance. Here each instance gives its
 * p50 ratio and its A/A (two halves of its classic calls), and the figure is the median of the
 * instances' ratios. Each pair's order is drawn at random (seeded: the same orders every run): with
 * a fixed order per instance, at 200 lines the instances with classic first put the design at
 * 0.90–0.97× and those with the design first at 1.04–1.11× (8 services, 2026-12-07), so a call's
 * place in the sequence weighed more than its design; the "second / first" column shows how much.
 */
import fc from 'fast-check';
import type { InvoiceInput } from '../src/invoice/schema.js';
import { HOUSE_STYLE } from '../test/fixtures/housePackages.js';
import { invoiceWithItems } from '../test/fixtures/invoices.js';
import { startBenchServer, type BenchServer } from './benchServer.js';
import { median, percentile } from './measure.js';
import { scaled } from './scale.js';

const SIZES = [1, 20, 200] as const;
type Size = (typeof SIZES)[number];
export interface InstanceFigures {
  /**
   * Per size: the p50 ratio design / classic, the A/A ratio of two halves of the classic calls, and
   * the p50 of the pairs' second calls over their first, whichever design each was.
   */
  ratios: Record<Size, { ratio: number; aa: number; classicP50: number; secondOverFirst: number }>;
}

/** The bench's invoice of `lines` lines (bench/templates.ts too). */
export const invoiceOf = (lines: number): InvoiceInput => ({ ...invoiceWithItems(lines), currency: 'EUR' });

/** Stores `design` with PUT /v1/templates on `server`: its id (bench/templates.ts too). */
export async function storeDesign(server: BenchServer, design: unknown): Promise<string> {
  const stored = await fetch(`${server.baseUrl}/v1/templates`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(design),
  });
  if (stored.status !== 200) throw new Error(`PUT /v1/templates: ${stored.status} ${await stored.text()}`);
  return ((await stored.json()) as { id: string }).id;
}

/** One fresh service: the stored design against classic at each size, each pair in a random order. */
async function timeOneInstance(seed: number): Promise<InstanceFigures> {
  const server = await startBenchServer('v1_invoice_pdf=0');
  try {
    const id = await storeDesign(server, HOUSE_STYLE);
    const ratios = {} as InstanceFigures['ratios'];
    for (const lines of SIZES) {
      const invoice = invoiceOf(lines);
      const bodies = { classic: JSON.stringify(invoice), design: JSON.stringify({ ...invoice, design: id }) };
      const samples = { classic: [] as number[], design: [] as number[] };
      const byPlace = { first: [] as number[], second: [] as number[] };
      const warmUp = scaled(10);
      // 200-line prints vary more (their A/A spread ±0.1× over 20 pairs): more pairs there.
      const pairs = scaled(lines === 200 ? 40 : 60, 2);
      // Each pair's order, seeded (fast-check, as the fuzz suite draws its bodies): the same every run.
      const designFirst = fc.sample(fc.boolean(), { seed: seed + lines, numRuns: warmUp + pairs });
      for (let at = 0; at < warmUp + pairs; at++) {
        const order = designFirst[at] ? (['design', 'classic'] as const) : (['classic', 'design'] as const);
        for (const [place, which] of order.entries()) {
          const ms = await server.post('/v1/invoice.pdf', 'application/json', bodies[which]);
          if (at < warmUp) continue;
          samples[which].push(ms);
          byPlace[place === 0 ? 'first' : 'second'].push(ms);
        }
      }
      const halves = [0, 1].map((half) => samples.classic.filter((_, at) => at % 2 === half));
      ratios[lines] = {
        ratio: percentile(samples.design, 50) / percentile(samples.classic, 50),
        aa: percentile(halves[0]!, 50) / percentile(halves[1]!, 50),
        classicP50: percentile(samples.classic, 50),
        secondOverFirst: percentile(byPlace.second, 50) / percentile(byPlace.first, 50),
      };
    }
    return { ratios };
  } finally {
    await server.close();
  }
}

/** Prints one row per instance and the median of the instances' ratios per size. */
export async function timeInstances(write: (text: string) => void): Promise<void> {
  const count = Math.max(1, Number(process.env.BENCH_INSTANCES ?? scaled(4, 1)));
  write(
    `\n| stored design over ${count} fresh services | p50 ratio at 1 / 20 / 200 lines | A/A of classic at 1 / 20 / 200 | a pair's second call / its first | classic p50 ms at 1 / 20 / 200 |\n|---|---|---|---|---|\n`,
  );
  const all: InstanceFigures[] = [];
  for (let instance = 0; instance < count; instance++) {
    const figures = await timeOneInstance(20261207 + instance);
    all.push(figures);
    const of = (pick: (size: Size) => number, digits: number, unit = '') =>
      SIZES.map((size) => `${pick(size).toFixed(digits)}${unit}`).join(' / ');
    write(
      `| service ${instance + 1} | ${of((size) => figures.ratios[size].ratio, 2, '×')} | ${of((size) => figures.ratios[size].aa, 2, '×')} | ${of((size) => figures.ratios[size].secondOverFirst, 2, '×')} | ${of((size) => figures.ratios[size].classicP50, 1)} |\n`,
    );
  }
  const medians = SIZES.map((size) => median(all.map((figures) => figures.ratios[size].ratio)));
  const spread = SIZES.map((size) => {
    const values = all.map((figures) => figures.ratios[size].ratio);
    return `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}×`;
  });
  write(
    `| **median of the services** | **${medians.map((ratio) => `${ratio.toFixed(3)}×`).join(' / ')}** (range ${spread.join(', ')}) | | | |\n`,
  );
}
