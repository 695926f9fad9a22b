/**
 * Italy's FatturaPA, in one run: `npm run bench:fatturapa`. Starts the service itself (renderer with
 * two pages, one compute thread, the PDF routes priced 0 so no payment round trip) on 127.0.0.1.
 * 1. Writing a 200-line FatturaPA with the SDI's checks in this thread (checkEInvoice with profile
 *    fatturapa + produceFatturaPA), against the same invoice's UBL under en16931 (checks + XML),
 *    alternated; target ≤ 5 ms p50.
 * 2. render.pdf of that FatturaPA against /v1/invoice.pdf of the same invoice sent as JSON, samples
 *    alternated so that drift hits both alike; the ratio of the p50s is the figure (target ≤ 1.2×).
 * BENCH_SCALE scales the sample counts.
 */
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { eInvoiceXml } from '../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_FATTURAPA_REQUEST } from '../src/einvoice/formats/fatturapa/example.js';
import { fatturaPAFieldsOf, produceFatturaPA } from '../src/einvoice/formats/fatturapa/request.js';
import { checkEInvoice } from '../src/einvoice/prepareEInvoice.js';
import { createHttpServer } from '../src/http/httpServer.js';
import { createLogger } from '../src/logger.js';
import { createRenderer } from '../src/render/renderer.js';
import { percentile } from './measure.js';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const count = (n: number) => Math.max(1, Math.round(n * scale));

const lines = Array.from({ length: 200 }, (_, at) => ({
  description: `Riga ${at + 1}: consulenza tecnica e progettazione ${'x'.repeat(120)}`,
  quantity: (at % 7) + 0.5,
  unit_price: 10 + (at % 13) * 1.25,
  tax_rate: [22, 10, 4][at % 3]!,
  unit: at % 2 === 0 ? 'C62' : 'HUR',
}));
const fatturaPA = { ...EXAMPLE_FATTURAPA_REQUEST, line_items: lines, discount: 123.45 };
const { fatturapa: _fields, profile: _profile, ...plain } = fatturaPA;
const ubl = { ...plain, profile: 'en16931' };

const writeFatturaPA = () => {
  const checked = checkEInvoice(fatturaPA);
  const { issues, prepared } = checked;
  const fatturapa = fatturaPAFieldsOf(checked);
  if (issues.length > 0) throw new Error(JSON.stringify(issues));
  return produceFatturaPA(prepared, fatturapa!).xml;
};
const writeUbl = () => eInvoiceXml(checkEInvoice(ubl).prepared, 'ubl');
const xml = writeFatturaPA();

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
const fmt = (samples: number[]) => `${percentile(samples, 50).toFixed(2)} / ${percentile(samples, 95).toFixed(2)}`;

try {
  const written = { fatturapa: [] as number[], ubl: [] as number[] };
  for (let at = 0; at < count(100) + 10; at++) {
    for (const [which, work] of [
      ['fatturapa', writeFatturaPA],
      ['ubl', writeUbl],
    ] as const) {
      const started = performance.now();
      work();
      if (at >= 10) written[which].push(performance.now() - started);
    }
  }
  const writeRatio = percentile(written.fatturapa, 50) / percentile(written.ubl, 50);
  process.stdout.write(
    `write with checks, 200 lines, p50 / p95 ms\n| FatturaPA (SDI checks + XML) | UBL en16931 (rules + XML) | FatturaPA / UBL p50 |\n|---|---|---|\n| ${fmt(written.fatturapa)} (target ≤ 5 ms p50) | ${fmt(written.ubl)} | ${writeRatio.toFixed(2)}× |\n\n`,
  );

  const json = JSON.stringify(plain);
  const samples = { json: [] as number[], fatturapa: [] as number[] };
  for (let at = 0; at < 3; at++) {
    await post('/v1/invoice.pdf', 'application/json', json);
    await post('/v1/e-invoice/render.pdf', 'application/xml', xml);
  }
  for (let at = 0; at < count(60); at++) {
    const order = at % 2 === 0 ? (['json', 'fatturapa'] as const) : (['fatturapa', 'json'] as const);
    for (const which of order) {
      samples[which].push(
        which === 'json'
          ? await post('/v1/invoice.pdf', 'application/json', json)
          : await post('/v1/e-invoice/render.pdf', 'application/xml', xml),
      );
    }
  }
  const ratio = percentile(samples.fatturapa, 50) / percentile(samples.json, 50);
  process.stdout.write(
    `render, 200 lines, p50 / p95 ms\n| /v1/invoice.pdf (JSON) | /v1/e-invoice/render.pdf (FatturaPA) | render.pdf / invoice.pdf p50 |\n|---|---|---|\n| ${fmt(samples.json)} | ${fmt(samples.fatturapa)} | ${ratio.toFixed(2)}× (target ≤ 1.2×) |\n`,
  );
} finally {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  close();
  await renderer.close();
}
