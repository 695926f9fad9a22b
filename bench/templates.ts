/**
 * Customer designs (docs/templates.md), in one run: `npm run bench:templates`. Starts the service
 * itself (renderer with two pages, one compute thread, /v1/invoice.pdf priced 0) on 127.0.0.1 and
 * times, alternated with a plain render of the same invoice so that drift hits both alike:
 * 1. POST /v1/templates/preview with the house style given inline (classic with a changed
 *    stylesheet and header partial, test/fixtures/housePackages.ts) against POST /v1/invoice.pdf
 *    in built-in classic, at 1 and 20 lines: the same package every call (a designer looking again)
 *    and a new package every call (a designer typing: a new id, so checked and compiled anew).
 * 2. POST /v1/invoice.pdf with that package stored (PUT /v1/templates, "design": "sha256:…")
 *    against built-in classic at 1, 20 and 200 lines (issue 49's target: ≤ 1.05×).
 * 3. The print-time check alone (bench/printCheck.ts) at 1, 20 and 200 lines (issue 49's target: ≤ 2 ms at 200).
 * The figure is the ratio of the p50s. BENCH_SCALE scales the sample counts.
 */
import type { InvoiceInput } from '../src/invoice/schema.js';
import { HOUSE_STYLE } from '../test/fixtures/housePackages.js';
import { invoiceWithItems } from '../test/fixtures/invoices.js';
import { fmt, startBenchServer, timeAlternated } from './benchServer.js';
import { scaled } from './scale.js';
import { percentile } from './measure.js';
import { p50, timePrintCheck } from './printCheck.js';

const server = await startBenchServer('v1_invoice_pdf=0');
const json = (body: unknown) => JSON.stringify(body);
const ratio = (samples: Record<'plain' | 'design', number[]>) =>
  percentile(samples.design, 50) / percentile(samples.plain, 50);
const row = (name: string, lines: number, samples: Record<'plain' | 'design', number[]>) =>
  `| ${name} | ${lines} | ${fmt(samples.plain, 1)} | ${fmt(samples.design, 1)} | ${ratio(samples).toFixed(2)}× |\n`;

try {
  const invoiceOf = (lines: number): InvoiceInput => ({ ...invoiceWithItems(lines), currency: 'EUR' });
  process.stdout.write('| case | lines | plain classic p50 / p95 ms | design p50 / p95 ms | p50 ratio |\n');
  process.stdout.write('|---|---|---|---|---|\n');
  let edit = 0;
  for (const lines of [1, 20]) {
    const invoice = invoiceOf(lines);
    const plain = () => server.post('/v1/invoice.pdf', 'application/json', json(invoice));
    const same = await timeAlternated(
      {
        plain,
        design: () => server.post('/v1/templates/preview', 'application/json', json({ design: HOUSE_STYLE, invoice })),
      },
      scaled(30),
    );
    process.stdout.write(row('preview, same package', lines, same));
    const typing = await timeAlternated(
      {
        plain,
        design: () => {
          // A designer's next keystroke: the stylesheet changed, so the package (and its id) is new.
          const css = `${HOUSE_STYLE.css}\n.house-tagline { letter-spacing: ${(edit++ % 1000) / 1000}pt; }`;
          return server.post(
            '/v1/templates/preview',
            'application/json',
            json({ design: { ...HOUSE_STYLE, css }, invoice }),
          );
        },
      },
      scaled(30),
    );
    process.stdout.write(row('preview, new package each call', lines, typing));
  }

  const stored = await fetch(`${server.baseUrl}/v1/templates`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: json(HOUSE_STYLE),
  });
  if (stored.status !== 200) throw new Error(`PUT /v1/templates: ${stored.status} ${await stored.text()}`);
  const { id } = (await stored.json()) as { id: string };
  for (const lines of [1, 20, 200]) {
    const invoice = invoiceOf(lines);
    const samples = await timeAlternated(
      {
        plain: () => server.post('/v1/invoice.pdf', 'application/json', json(invoice)),
        design: () => server.post('/v1/invoice.pdf', 'application/json', json({ ...invoice, design: id })),
      },
      scaled(lines === 200 ? 12 : 30),
    );
    process.stdout.write(row('stored design on /v1/invoice.pdf', lines, samples));
  }
  process.stdout.write(
    '\n| print-time check | lines | facts | p50 ms, with the layout it forces | p50 ms, page laid out |\n|---|---|---|---|---|\n',
  );
  for (const lines of [1, 20, 200]) {
    const { withLayout, laidOut, facts } = await timePrintCheck(lines, scaled(lines === 200 ? 20 : 40));
    process.stdout.write(`| house style | ${lines} | ${facts} | ${p50(withLayout)} | ${p50(laidOut)} |\n`);
  }
} finally {
  await server.close();
}
