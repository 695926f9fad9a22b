/**
 * Poland's KSeF FA(3), in one run: `npm run bench:ksef`. Starts the service itself (renderer with two
 * pages, one compute thread, the routes priced 0 so no payment round trip) on 127.0.0.1.
 * 1. FA(3) generation and checks of a 200-line invoice (parseKsefRoute: the request checked under
 *    FA(3)'s rules and its XML written, what POST /v1/e-invoice/ksef.xml does on the compute pool),
 *    in this thread, beside the CII route's work on the same invoice (EN 16931 checks + CII XML) as
 *    the baseline; and POST /v1/e-invoice/ksef.xml over HTTP (target ≤ 5 ms p50 for the work).
 * 2. render.pdf of that FA(3) against /v1/invoice.pdf of the same invoice sent as JSON, samples
 *    alternated so that drift hits both alike; the ratio of the p50s is the figure (target ≤ 1.2×).
 * BENCH_SCALE scales the sample counts.
 */
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { eInvoiceXml } from '../src/einvoice/eInvoiceDocuments.js';
import { KSEF_EXAMPLE } from '../src/einvoice/formats/ksef/ksefExample.js';
import { parseKsefRoute } from '../src/einvoice/formats/ksef/ksefRoute.js';
import { prepareProfiledEInvoice } from '../src/einvoice/prepareEInvoice.js';
import { createHttpServer } from '../src/http/httpServer.js';
import { createLogger } from '../src/logger.js';
import { createRenderer } from '../src/render/renderer.js';
import { invoiceWithItems } from '../test/fixtures/invoices.js';
import { percentile } from './measure.js';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const count = (n: number) => Math.max(1, Math.round(n * scale));

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
const xml = Buffer.from(parseKsefRoute(request).xml);

const timed = (run: () => unknown, n: number) => {
  const samples: number[] = [];
  for (let at = 0; at < n + 10; at++) {
    const started = performance.now();
    run();
    if (at >= 10) samples.push(performance.now() - started);
  }
  return samples;
};

const renderer = await createRenderer({ poolSize: 2 });
const config = loadConfig({
  LOG_LEVEL: 'silent',
  NODE_ENV: 'production',
  PORT: '0',
  COMPUTE_THREADS: '1',
  PRICES: 'v1_invoice_pdf=0,v1_e_invoice_render_pdf=0,v1_e_invoice_ksef_xml=0',
});
const { app, close } = createApp({ config, logger: createLogger('silent'), renderer });
const server = createHttpServer(app.callback()).listen(0, '127.0.0.1');
await new Promise<void>((resolve) => server.once('listening', () => resolve()));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const post = async (path: string, type: string, body: string | Buffer) => {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: body as BodyInit,
    signal: AbortSignal.timeout(60_000),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${bytes.toString('utf8').slice(0, 300)}`);
  return performance.now() - started;
};
const fmt = (samples: number[]) => `${percentile(samples, 50).toFixed(2)} / ${percentile(samples, 95).toFixed(2)}`;

try {
  const ksef = timed(() => parseKsefRoute(request), count(100));
  const cii = timed(() => eInvoiceXml(prepareProfiledEInvoice(invoice, 'cii').prepared, 'cii'), count(100));
  const http: number[] = [];
  const body = JSON.stringify(request);
  for (let at = 0; at < count(50) + 5; at++) {
    const ms = await post('/v1/e-invoice/ksef.xml', 'application/json', body);
    if (at >= 5) http.push(ms);
  }
  const workRatio = percentile(ksef, 50) / percentile(cii, 50);
  process.stdout.write(
    `FA(3) generation + checks, 200 lines (${xml.length} bytes), p50 / p95 ms\n| FA(3) (this thread) | CII of the same invoice (this thread) | FA(3) / CII p50 | POST /v1/e-invoice/ksef.xml (compute pool, HTTP) |\n|---|---|---|---|\n| ${fmt(ksef)} (target ≤ 5 ms p50) | ${fmt(cii)} | ${workRatio.toFixed(2)}× | ${fmt(http)} |\n\n`,
  );

  const json = JSON.stringify(invoice);
  const samples = { json: [] as number[], fa3: [] as number[] };
  for (let at = 0; at < 3; at++) {
    await post('/v1/invoice.pdf', 'application/json', json);
    await post('/v1/e-invoice/render.pdf', 'application/xml', xml);
  }
  for (let at = 0; at < count(60); at++) {
    const order = at % 2 === 0 ? (['json', 'fa3'] as const) : (['fa3', 'json'] as const);
    for (const which of order) {
      samples[which].push(
        which === 'json'
          ? await post('/v1/invoice.pdf', 'application/json', json)
          : await post('/v1/e-invoice/render.pdf', 'application/xml', xml),
      );
    }
  }
  const ratio = percentile(samples.fa3, 50) / percentile(samples.json, 50);
  process.stdout.write(
    `render, 200 lines, p50 / p95 ms\n| /v1/invoice.pdf (JSON) | /v1/e-invoice/render.pdf (FA(3) with KOD I) | render.pdf / invoice.pdf p50 |\n|---|---|---|\n| ${fmt(samples.json)} | ${fmt(samples.fa3)} | ${ratio.toFixed(2)}× (target ≤ 1.2×) |\n`,
  );
} finally {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  close();
  await renderer.close();
}
