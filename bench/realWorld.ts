/**
 * The real-world invoice against the plain one, in one run: `npx tsx bench/realWorld.ts` (the last
 * part of `npm run bench`). The same 1-, 20- and 200-line invoice (test/fixtures/invoices.ts) is
 * rendered by the service over HTTP as is ("plain": English, one tax rate) and with locale de-DE,
 * a 240 × 80 PNG logo, an accent colour and three VAT groups (19 %, 7 % and zero-rated lines in
 * turn; a 1-line invoice can only have one group). Samples alternate between the two so that the
 * machine's drift hits both alike; the ratio of the p50s is the figure (target ≤ 1.1×).
 * BENCH_SCALE scales the sample counts as in bench/render.ts.
 */
import type { InvoiceInput } from '../src/invoice/schema.js';
import { invoiceWithItems } from '../test/fixtures/invoices.js';
import { logoDataUri } from '../test/fixtures/realWorldInvoices.js';
import { percentile } from './measure.js';
import { serviceTarget } from './targets.js';

const SIZES = [1, 20, 200] as const;
const scale = Number(process.env.BENCH_SCALE ?? 1);
const SAMPLES: Record<(typeof SIZES)[number], number> = { 1: 60, 20: 40, 200: 20 };
const WARMUP = 3;
const RATES = [19, 7, 0] as const;

function realWorld(plain: InvoiceInput): InvoiceInput {
  return {
    ...plain,
    currency: 'EUR',
    locale: 'de-DE',
    logo: logoDataUri(),
    accent_color: '#8a3b12',
    tax_rate: undefined,
    line_items: plain.line_items.map((line, at) => ({ ...line, tax_rate: RATES[at % RATES.length] })),
  };
}

const target = await serviceTarget({ poolSize: 2 });
try {
  process.stdout.write('real-world invoice (de-DE, logo, accent, 3 VAT groups) against the plain one, service over HTTP, p50 ms\n');
  process.stdout.write('| lines | plain p50 / p95 | real-world p50 / p95 | real-world / plain p50 | PDF bytes plain / real-world |\n|---|---|---|---|---|\n');
  for (const size of SIZES) {
    const plain: InvoiceInput = { ...invoiceWithItems(size), currency: 'EUR' };
    const variant = realWorld(plain);
    const samples = { plain: [] as number[], variant: [] as number[] };
    const bytes = { plain: 0, variant: 0 };
    for (let at = 0; at < WARMUP; at++) {
      await target.render(plain);
      await target.render(variant);
    }
    for (let at = 0; at < Math.max(1, Math.round(SAMPLES[size] * scale)); at++) {
      // Alternate which goes first, so neither always follows the other's work.
      const order = at % 2 === 0 ? (['plain', 'variant'] as const) : (['variant', 'plain'] as const);
      for (const which of order) {
        const started = performance.now();
        bytes[which] = await target.render(which === 'plain' ? plain : variant);
        samples[which].push(performance.now() - started);
      }
    }
    const p = (list: number[], q: number) => percentile(list, q).toFixed(1);
    const ratio = percentile(samples.variant, 50) / percentile(samples.plain, 50);
    process.stdout.write(
      `| ${size} | ${p(samples.plain, 50)} / ${p(samples.plain, 95)} | ${p(samples.variant, 50)} / ${p(samples.variant, 95)} | ${ratio.toFixed(2)}× ${ratio <= 1.1 ? '(≤ 1.1×: met)' : '(> 1.1×: NOT met)'} | ${bytes.plain} / ${bytes.variant} |\n`,
    );
  }
} finally {
  await target.close();
}
