/**
 * Poland's KSeF FA(3), in one run: `npm run bench:ksef`. Starts the service itself (renderer with two
 * pages, one compute thread, the routes priced 0 so no payment round trip) on 127.0.0.1.
 * 1. FA(3) generation and checks of a 200-line invoice (writeOwnSyntax: the request checked under
 *    FA(3)'s rules and its XML written, what POST /v1/e-invoice/ksef.xml does on the compute pool),
 *    in this thread, beside the CII route's work on the same invoice (EN 16931 checks + CII XML) as
 *    the baseline; and POST /v1/e-invoice/ksef.xml over HTTP (target ≤ 5 ms p50 for the work).
 * 2. render.pdf of that FA(3) against /v1/invoice.pdf of the same invoice sent as JSON, samples
 *    alternated so that drift hits both alike; the ratio of the p50s is the figure (target ≤ 1.2×).
 * BENCH_SCALE scales the sample counts.
 */
import { eInvoiceXml } from '../src/einvoice/eInvoiceDocuments.js';
import { KSEF_EXAMPLE } from '../src/einvoice/formats/ksef/ksefExample.js';
import { ksef as KSEF_FORMAT } from '../src/einvoice/formats/ksef/format.js';
import { writeOwnSyntax } from '../src/einvoice/ownSyntax.js';
import { prepareProfiledEInvoice } from '../src/einvoice/prepareEInvoice.js';
import { invoiceWithItems } from '../test/fixtures/invoices.js';
import { fmt, startBenchServer, timeAlternated } from './benchServer.js';
import { scaled } from './scale.js';
import { percentile } from './measure.js';

const { line_items: lines } = invoiceWithItems(200);
const invoice = {
  seller: KSEF_EXAMPLE.seller,
  buyer: KSEF_EXAMPLE.buyer,
  invoice_number: 'FV/2026/03/0200',
  issue_date: '2026-03-02',
  due_date: '2026-03-16',
  currency: 'PLN' as const,
  line_items: lines.map((line, at) => ({ ...line, tax_rate: [23, 8, 5][at % 3]! })),
  payment: KSEF_EXAMPLE.payment,
};
const request = { ...invoice, profile: 'ksef', ksef: { place_of_issue: 'Warszawa' } };
const xml = Buffer.from(writeOwnSyntax(KSEF_FORMAT, request).written.file);

const server = await startBenchServer('v1_invoice_pdf=0,v1_e_invoice_render_pdf=0,v1_e_invoice_ksef_xml=0');

try {
  const { ksef } = await timeAlternated({ ksef: () => writeOwnSyntax(KSEF_FORMAT, request) }, scaled(100));
  const { cii } = await timeAlternated(
    { cii: () => eInvoiceXml(prepareProfiledEInvoice(invoice, 'cii').prepared, 'cii') },
    scaled(100),
  );
  const http: number[] = [];
  const body = JSON.stringify(request);
  for (let at = 0; at < scaled(50) + scaled(5); at++) {
    const ms = await server.post('/v1/e-invoice/ksef.xml', 'application/json', body);
    if (at >= scaled(5)) http.push(ms);
  }
  const workRatio = percentile(ksef, 50) / percentile(cii, 50);
  process.stdout.write(
    `FA(3) generation + checks, 200 lines (${xml.length} bytes), p50 / p95 ms\n| FA(3) (this thread) | CII of the same invoice (this thread) | FA(3) / CII p50 | POST /v1/e-invoice/ksef.xml (compute pool, HTTP) |\n|---|---|---|---|\n| ${fmt(ksef)} (target ≤ 5 ms p50) | ${fmt(cii)} | ${workRatio.toFixed(2)}× | ${fmt(http)} |\n\n`,
  );

  const samples = await server.renderPair(JSON.stringify(invoice), xml);
  const ratio = percentile(samples.document, 50) / percentile(samples.json, 50);
  process.stdout.write(
    `render, 200 lines, p50 / p95 ms\n| /v1/invoice.pdf (JSON) | /v1/e-invoice/render.pdf (FA(3) with KOD I) | render.pdf / invoice.pdf p50 |\n|---|---|---|\n| ${fmt(samples.json)} | ${fmt(samples.document)} | ${ratio.toFixed(2)}× (target ≤ 1.2×) |\n`,
  );
} finally {
  await server.close();
}
