/**
 * A stored brand font against the installed font it was taken from, in one run: `npm run
 * bench:fonts`. The service over HTTP (benchServer.ts) renders the same 1-, 20- and 200-line
 * invoice with theme.font "Noto Serif" (installed) and with the same files stored by PUT /v1/fonts
 * (NotoSerif-Regular.ttf, 589 KB, as `font`, NotoSerif-Bold.ttf as `font_bold`: the same glyphs
 * and faces, so the difference is what loading a stored font costs). Samples alternate; the ratio
 * of the p50s is the figure, target ≤ 1.05× (issue 50). Then the first render after a font is
 * stored against the next ones: a render page loads a font once (src/fonts/servedFonts.ts).
 * BENCH_SCALE scales the sample counts.
 */
import { readFileSync } from 'node:fs';
import type { InvoiceInput } from '../src/invoice/schema.js';
import { invoiceWithItems } from '../test/fixtures/invoices.js';
import { fmt, startBenchServer, timeAlternated } from './benchServer.js';
import { percentile } from './measure.js';
import { scaled } from './scale.js';

const NOTO = '/usr/share/fonts/truetype/noto';
const SAMPLES = { 1: 40, 20: 30, 200: 12 } as const;

const server = await startBenchServer('v1_invoice_pdf=0');
try {
  const store = async (file: string): Promise<string> => {
    const response = await fetch(`${server.baseUrl}/v1/fonts`, {
      method: 'PUT',
      headers: { 'content-type': 'font/ttf' },
      body: readFileSync(`${NOTO}/${file}`),
    });
    if (response.status !== 200) throw new Error(`PUT /v1/fonts ${file}: ${response.status}`);
    return ((await response.json()) as { id: string }).id;
  };
  const render = (invoice: InvoiceInput) => server.post('/v1/invoice.pdf', 'application/json', JSON.stringify(invoice));

  const regular = await store('NotoSerif-Regular.ttf');
  const bold = await store('NotoSerif-Bold.ttf');
  process.stdout.write('a stored brand font against the installed font, same files, p50 / p95 ms\n');
  process.stdout.write('| lines | installed | stored | stored / installed p50 |\n|---|---|---|---|\n');
  for (const size of [1, 20, 200] as const) {
    const plain: InvoiceInput = { ...invoiceWithItems(size), currency: 'EUR' };
    const samples = await timeAlternated(
      {
        installed: () => render({ ...plain, theme: { font: 'Noto Serif' } }),
        stored: () => render({ ...plain, theme: { font: regular, font_bold: bold } }),
      },
      scaled(SAMPLES[size]),
    );
    const ratio = percentile(samples.stored, 50) / percentile(samples.installed, 50);
    const verdict = ratio <= 1.05 ? '(≤ 1.05×: met)' : '(> 1.05×: NOT met)';
    process.stdout.write(
      `| ${size} | ${fmt(samples.installed, 1)} | ${fmt(samples.stored, 1)} | ${ratio.toFixed(2)}× ${verdict} |\n`,
    );
  }

  // A font no page has loaded yet: its first renders (one per pooled page) load it, then no more.
  const fresh = await store('NotoSerif-Italic.ttf');
  const invoice: InvoiceInput = { ...invoiceWithItems(1), currency: 'EUR', theme: { font: fresh } };
  const first = [await render(invoice), await render(invoice)];
  const next: number[] = [];
  for (let at = 0; at < scaled(20); at++) next.push(await render(invoice));
  process.stdout.write(
    `\na newly stored font (NotoSerif-Italic.ttf, 1 line), ms: first two renders (one per page) ${first
      .map((ms) => ms.toFixed(1))
      .join(', ')}; then p50 ${percentile(next, 50).toFixed(1)}\n`,
  );
} finally {
  await server.close();
}
