/**
 * The real-world invoice against the plain one, in one run: `npx tsx bench/realWorld.ts` (the last
 * part of `npm run bench`). The same 1-, 20- and 200-line invoice (test/fixtures/invoices.ts) is
 * rendered by the service over HTTP as is ("plain": English, one tax rate) and with locale de-DE,
 * a 240 × 80 PNG logo, an accent colour and three VAT groups (19 %, 7 % and zero-rated lines in
 * turn; a 1-line invoice can only have one group). Samples alternate between the two so that the
 * machine's drift hits both alike; the ratio of the p50s is the figure (target ≤ 1.1×).
 * Then each payment QR invoice (src/invoice/examplePaymentQr.ts) against the same invoice with
 * payment.qr none (target ≤ 1.1×; the Swiss QR-bill adds a page, so it is reported apart).
 * Beside the service's ratio, the same pair printed by Chromium alone (the lean floor: the very same
 * HTML and options on one locked-down page, no HTTP, validation or queue), also alternated: what
 * the two documents cost Chromium, so that the service's own share of the ratio is visible.
 * BENCH_SCALE scales the sample counts as in bench/render.ts.
 */
import type { InvoiceInput } from '../src/invoice/schema.js';
import { invoiceWithItems } from '../test/fixtures/invoices.js';
import { QR_INVOICES } from '../src/invoice/examplePaymentQr.js';
import { logoDataUri } from '../test/fixtures/realWorldInvoices.js';
import { percentile } from './measure.js';
import { floorTarget, serviceTarget } from './targets.js';
import { scaled } from './scale.js';

const SIZES = [1, 20, 200] as const;
const SAMPLES: Record<(typeof SIZES)[number], number> = { 1: 60, 20: 40, 200: 20 };
const WARMUP = scaled(3);
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

/** p50 and p95 of `a` and `b`, sampled alternately (order flipped each time) after a warm-up. */
async function compare(
  render: (body: InvoiceInput) => Promise<number>,
  a: InvoiceInput,
  b: InvoiceInput,
  count: number,
) {
  const samples = { a: [] as number[], b: [] as number[] };
  const bytes = { a: 0, b: 0 };
  for (let at = 0; at < WARMUP; at++) {
    await render(a);
    await render(b);
  }
  for (let at = 0; at < scaled(count); at++) {
    const order = at % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
    for (const which of order) {
      const started = performance.now();
      bytes[which] = await render(which === 'a' ? a : b);
      samples[which].push(performance.now() - started);
    }
  }
  return { samples, bytes, ratio: percentile(samples.b, 50) / percentile(samples.a, 50) };
}

const target = await serviceTarget({ poolSize: 2 });
const chromiumAlone = await floorTarget(1, 'lean');
try {
  process.stdout.write(
    'real-world invoice (de-DE, logo, accent, 3 VAT groups) against the plain one, service over HTTP, p50 ms\n',
  );
  process.stdout.write(
    '| lines | plain p50 / p95 | real-world p50 / p95 | real-world / plain p50 | Chromium alone: real-world / plain p50 | PDF bytes plain / real-world |\n|---|---|---|---|---|---|\n',
  );
  for (const size of SIZES) {
    const plain: InvoiceInput = { ...invoiceWithItems(size), currency: 'EUR' };
    const variant = realWorld(plain);
    const { samples: raw, bytes: rawBytes, ratio } = await compare(target.render, plain, variant, SAMPLES[size]);
    const samples = { plain: raw.a, variant: raw.b };
    const bytes = { plain: rawBytes.a, variant: rawBytes.b };
    const alone = await compare(chromiumAlone.render, plain, variant, SAMPLES[size]);
    const p = (list: number[], q: number) => percentile(list, q).toFixed(1);
    process.stdout.write(
      `| ${size} | ${p(samples.plain, 50)} / ${p(samples.plain, 95)} | ${p(samples.variant, 50)} / ${p(samples.variant, 95)} | ${ratio.toFixed(2)}× ${ratio <= 1.1 ? '(≤ 1.1×: met)' : '(> 1.1×: NOT met)'} | ${alone.ratio.toFixed(2)}× | ${bytes.plain} / ${bytes.variant} |\n`,
    );
  }
  process.stdout.write(
    '\npayment QR invoice against the same invoice with payment.qr none, service over HTTP, p50 ms\n',
  );
  process.stdout.write('| scheme | without p50 | with p50 | with / without |\n|---|---|---|---|\n');
  for (const [scheme, body] of Object.entries(QR_INVOICES) as [string, InvoiceInput][]) {
    const none: InvoiceInput = { ...body, payment: { ...body.payment, qr: 'none' } };
    const { samples, ratio } = await compare(target.render, none, body, SAMPLES[1]);
    const note = scheme === 'swiss' ? '(adds the QR-bill page)' : ratio <= 1.1 ? '(≤ 1.1×: met)' : '(> 1.1×: NOT met)';
    process.stdout.write(
      `| ${scheme} | ${percentile(samples.a, 50).toFixed(1)} | ${percentile(samples.b, 50).toFixed(1)} | ${ratio.toFixed(2)}× ${note} |\n`,
    );
  }
} finally {
  await target.close();
  await chromiumAlone.close();
}
