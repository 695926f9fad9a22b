/**
 * Inbound e-invoices, in one run: `npm run bench:inbound`. Starts the service itself (renderer with
 * two pages, one compute thread, both PDF routes priced 0 so no payment round trip) on 127.0.0.1.
 * 1. inspect of a 200-line invoice (the CII XML this service writes for test/fixtures/invoices.ts's
 *    200-line invoice): the read itself in this thread, and POST /v1/e-invoice/inspect over HTTP,
 *    which reads on the compute pool (target ≤ 20 ms).
 * 2. render.pdf of that XML against /v1/invoice.pdf of the same invoice sent as JSON, samples
 *    alternated so that drift hits both alike; the ratio of the p50s is the figure (target ≤ 1.2×).
 * BENCH_SCALE scales the sample counts.
 */
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { eInvoiceXml } from '../src/einvoice/eInvoiceDocuments.js';
import { inspectEInvoice } from '../src/einvoice/inbound/inspect.js';
import { prepareEInvoice } from '../src/einvoice/prepareEInvoice.js';
import { createHttpServer } from '../src/http/httpServer.js';
import { createLogger } from '../src/logger.js';
import { createRenderer } from '../src/render/renderer.js';
import { invoiceWithItems } from '../test/fixtures/invoices.js';
import { percentile } from './measure.js';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const count = (n: number) => Math.max(1, Math.round(n * scale));

const invoice = {
  ...invoiceWithItems(200, { currency: 'EUR' }),
  seller: { name: 'Seller GmbH', country: 'DE', vat_id: 'DE123456789' },
  buyer: { name: 'Buyer AG', country: 'DE' },
  due_date: undefined,
  payment_instructions: 'Within 30 days',
};
const xml = eInvoiceXml(prepareEInvoice(invoice), 'cii');

const renderer = await createRenderer({ poolSize: 2 });
const config = loadConfig({
  LOG_LEVEL: 'silent',
  NODE_ENV: 'production',
  PORT: '0',
  COMPUTE_THREADS: '1',
  PRICES: 'v1_invoice_pdf=0,v1_e_invoice_render_pdf=0',
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
const fmt = (samples: number[]) => `${percentile(samples, 50).toFixed(1)} / ${percentile(samples, 95).toFixed(1)}`;

try {
  const inline: number[] = [];
  for (let at = 0; at < count(50) + 5; at++) {
    const started = performance.now();
    inspectEInvoice(xml, 'xml');
    if (at >= 5) inline.push(performance.now() - started);
  }
  const http: number[] = [];
  for (let at = 0; at < count(50) + 5; at++) {
    const ms = await post('/v1/e-invoice/inspect', 'application/xml', xml);
    if (at >= 5) http.push(ms);
  }
  process.stdout.write(
    `inspect, 200-line CII (${xml.length} bytes), p50 / p95 ms\n| read in this thread | POST /v1/e-invoice/inspect (compute pool, HTTP) |\n|---|---|\n| ${fmt(inline)} | ${fmt(http)} |\n\n`,
  );

  const json = JSON.stringify(invoice);
  const samples = { json: [] as number[], inbound: [] as number[] };
  for (let at = 0; at < 3; at++) {
    await post('/v1/invoice.pdf', 'application/json', json);
    await post('/v1/e-invoice/render.pdf', 'application/xml', xml);
  }
  // 60 pairs: with 20 the ratio swung between 1.12× and 1.24× from run to run (the 200-line p50s
  // move by a few ms with which pooled page a render lands on).
  for (let at = 0; at < count(60); at++) {
    const order = at % 2 === 0 ? (['json', 'inbound'] as const) : (['inbound', 'json'] as const);
    for (const which of order) {
      samples[which].push(
        which === 'json'
          ? await post('/v1/invoice.pdf', 'application/json', json)
          : await post('/v1/e-invoice/render.pdf', 'application/xml', xml),
      );
    }
  }
  const ratio = percentile(samples.inbound, 50) / percentile(samples.json, 50);
  process.stdout.write(
    `render, 200 lines, p50 / p95 ms\n| /v1/invoice.pdf (JSON) | /v1/e-invoice/render.pdf (CII XML) | render.pdf / invoice.pdf p50 |\n|---|---|---|\n| ${fmt(samples.json)} | ${fmt(samples.inbound)} | ${ratio.toFixed(2)}× (target ≤ 1.2×) |\n`,
  );
} finally {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  close();
  await renderer.close();
}
