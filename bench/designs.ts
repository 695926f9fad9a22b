/**
 * The designs against today's, in one run: `npm run bench:designs`. The service over HTTP renders
 * the same 1-, 20- and 200-line invoice (test/fixtures/invoices.ts) in classic (the default, the
 * baseline) and in each other design; then the real-world example of /v1/schema against the plain
 * 1-line example in each design; then a stamp against the same invoice without one. Samples
 * alternate between the two sides (order flipped each time) so that the machine's drift hits
 * both alike; the ratio of the p50s is the figure. Targets: a design ≤ 1.1× classic, the
 * real-world invoice ≤ 1.1× the plain one, a stamp ≤ 1.05× (a stored brand font: bench/fonts.ts).
 * BENCH_SCALE scales the sample counts.
 */
import { DESIGNS } from '../src/invoice/designFields.js';
import { EXAMPLE_INVOICE } from '../src/invoice/example.js';
import { EXAMPLE_REAL_WORLD_INVOICE } from '../src/invoice/exampleRealWorld.js';
import type { InvoiceInput } from '../src/invoice/schema.js';
import { invoiceWithItems } from '../test/fixtures/invoices.js';
import { percentile } from './measure.js';
import { serviceTarget } from './targets.js';
import { scaled } from './scale.js';

const SIZES = [1, 20, 200] as const;
const SAMPLES: Record<(typeof SIZES)[number], number> = { 1: 40, 20: 30, 200: 12 };
const WARMUP = scaled(3);

/** p50s of `a` and `b`, sampled alternately after a warm-up, and their ratio b / a. */
async function compare(
  render: (body: InvoiceInput) => Promise<number>,
  a: InvoiceInput,
  b: InvoiceInput,
  count: number,
) {
  const samples = { a: [] as number[], b: [] as number[] };
  for (let at = 0; at < WARMUP; at++) {
    await render(a);
    await render(b);
  }
  for (let at = 0; at < scaled(count); at++) {
    for (const which of at % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const)) {
      const started = performance.now();
      await render(which === 'a' ? a : b);
      samples[which].push(performance.now() - started);
    }
  }
  const a50 = percentile(samples.a, 50);
  const b50 = percentile(samples.b, 50);
  return { a50, b50, ratio: b50 / a50 };
}

const verdict = (ratio: number, target: number) =>
  `${ratio.toFixed(2)}× ${ratio <= target ? `(≤ ${target}×: met)` : `(> ${target}×: NOT met)`}`;

const target = await serviceTarget({ poolSize: 2 });
try {
  process.stdout.write("each design against classic (today's), same invoice, service over HTTP, p50 ms\n");
  process.stdout.write('| design | lines | classic p50 | design p50 | design / classic |\n|---|---|---|---|---|\n');
  for (const design of DESIGNS.filter((name) => name !== 'classic')) {
    for (const size of SIZES) {
      const plain: InvoiceInput = { ...invoiceWithItems(size), currency: 'EUR' };
      const { a50, b50, ratio } = await compare(target.render, plain, { ...plain, design }, SAMPLES[size]);
      process.stdout.write(
        `| ${design} | ${size} | ${a50.toFixed(1)} | ${b50.toFixed(1)} | ${verdict(ratio, 1.1)} |\n`,
      );
    }
  }

  process.stdout.write('\nthe real-world example of /v1/schema against the plain example, per design, p50 ms\n');
  process.stdout.write('| design | plain p50 | real-world p50 | real-world / plain |\n|---|---|---|---|\n');
  for (const design of DESIGNS) {
    const { a50, b50, ratio } = await compare(
      target.render,
      { ...EXAMPLE_INVOICE, design },
      { ...EXAMPLE_REAL_WORLD_INVOICE, design },
      SAMPLES[1],
    );
    process.stdout.write(`| ${design} | ${a50.toFixed(1)} | ${b50.toFixed(1)} | ${verdict(ratio, 1.1)} |\n`);
  }

  process.stdout.write('\na stamp against none, p50 ms\n');
  process.stdout.write('| invoice | without p50 | with "paid" p50 | with / without |\n|---|---|---|---|\n');
  for (const [name, body] of [
    ['real-world', EXAMPLE_REAL_WORLD_INVOICE],
    ['20 lines', { ...invoiceWithItems(20), currency: 'EUR' }],
  ] as [string, InvoiceInput][]) {
    const { a50, b50, ratio } = await compare(target.render, body, { ...body, stamp: 'paid' }, SAMPLES[1]);
    process.stdout.write(`| ${name} | ${a50.toFixed(1)} | ${b50.toFixed(1)} | ${verdict(ratio, 1.05)} |\n`);
  }
} finally {
  await target.close();
}
