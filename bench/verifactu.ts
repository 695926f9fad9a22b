/**
 * Spain's VERI*FACTU, in one run: `npm run bench:verifactu`. The service as the format benches start
 * it (bench/benchServer.ts: renderer with two pages, one compute thread, the routes priced 0) on 127.0.0.1.
 * 1. The 200-line record with AEAT's checks in this thread (checkVerifactuRequest + the message),
 *    against the same invoice's UBL under en16931 (checks + XML), alternated; target ≤ 5 ms p50.
 * 2. /v1/invoice.pdf of that invoice with its `verifactu` object (the QR tributario printed) against
 *    the same invoice without it, samples alternated; the ratio of the p50s is the figure (target ≤ 1.05×).
 *    Beside it, what a loaded machine does not blur: the CPU both processes spent per call (Node's
 *    threads and Chromium's, bench/processCpu.ts), and the baseline's own spread: the ratio of the
 *    p50s of two halves of the calls without the QR (A/A: how far apart two measures of the same work fall) and its p25–p75.
 * 3. /v1/e-invoice/factur-x.pdf of the invoice with and without its `verifactu` object, the same way.
 * BENCH_SCALE scales the sample counts.
 */
import { eInvoiceXml } from '../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_VERIFACTU_REQUEST } from '../src/einvoice/formats/verifactu/example.js';
import { checkVerifactuRequest, verifactuXml } from '../src/einvoice/formats/verifactu/request.js';
import { DEFAULT_SYSTEM } from '../src/einvoice/formats/verifactu/system.js';
import { checkEInvoice } from '../src/einvoice/prepareEInvoice.js';
import { fmt, startBenchServer, timeAlternated } from './benchServer.js';
import { browserCpuMs, nodeCpuMs } from './processCpu.js';
import { scaled } from './scale.js';
import { percentile } from './measure.js';

const lines = Array.from({ length: 200 }, (_, at) => ({
  description: `Línea ${at + 1}: consultoría técnica y desarrollo ${'x'.repeat(120)}`,
  quantity: (at % 7) + 0.5,
  unit_price: 10 + (at % 13) * 1.25,
  tax_rate: [21, 10, 4][at % 3]!,
}));
const withRecord = { ...EXAMPLE_VERIFACTU_REQUEST, line_items: lines, discount: 123.45 };
const { verifactu: _fields, ...plain } = withRecord;
const ubl = { ...plain, profile: 'en16931' };

const writeRecord = () => {
  const checked = checkVerifactuRequest(withRecord, {
    system: DEFAULT_SYSTEM,
    environment: 'production',
    now: new Date(),
  });
  if (checked.issues.length > 0) throw new Error(JSON.stringify(checked.issues));
  return verifactuXml(checked);
};
const writeUbl = () => eInvoiceXml(checkEInvoice(ubl).prepared, 'ubl');

/**
 * A PDF route with the QR tributario against the same request without it: scaled(3) warm-up pairs, then
 * scaled(60) pairs in alternated order, each call's wall time and the CPU it cost (Node + Chromium).
 */
async function comparePdfs(path: string, qrBody: object, plainBody: object): Promise<void> {
  const bodies = { qr: JSON.stringify(qrBody), plain: JSON.stringify(plainBody) };
  const wall = { qr: [] as number[], plain: [] as number[] };
  const cpu = { qr: { node: 0, browser: 0 }, plain: { node: 0, browser: 0 } };
  const run = async (which: 'qr' | 'plain', measured: boolean) => {
    const browser = browserCpuMs();
    const node = nodeCpuMs();
    const ms = await server.post(path, 'application/json', bodies[which]);
    const nodeSpent = nodeCpuMs() - node;
    if (!measured) return;
    wall[which].push(ms);
    cpu[which].node += nodeSpent;
    cpu[which].browser += browserCpuMs() - browser;
  };
  for (let at = 0; at < scaled(3); at++) for (const which of ['qr', 'plain'] as const) await run(which, false);
  // At least 2 pairs: the A/A ratio compares two halves of the calls without the QR.
  const pairs = scaled(60, 2);
  for (let at = 0; at < pairs; at++)
    for (const which of at % 2 === 0 ? (['qr', 'plain'] as const) : (['plain', 'qr'] as const)) await run(which, true);
  const p50 = (samples: number[]) => percentile(samples, 50);
  const perCall = (which: 'qr' | 'plain') => (cpu[which].node + cpu[which].browser) / pairs;
  const halves = [wall.plain.filter((_, at) => at % 2 === 0), wall.plain.filter((_, at) => at % 2 === 1)];
  process.stdout.write(
    `${path}, 200 lines, ${pairs} pairs, p50 / p95 ms\n| with the QR tributario | without | with / without p50 (target ≤ 1.05×) | CPU per call with / without (Node + Chromium) | baseline A/A p50 ratio, p25–p75 |\n|---|---|---|---|---|\n| ${fmt(wall.qr)} | ${fmt(wall.plain)} | ${(p50(wall.qr) / p50(wall.plain)).toFixed(3)}× | ${perCall('qr').toFixed(1)} / ${perCall('plain').toFixed(1)} ms = ${(perCall('qr') / perCall('plain')).toFixed(3)}× | ${(p50(halves[0]!) / p50(halves[1]!)).toFixed(3)}×, ${percentile(wall.plain, 25).toFixed(0)}–${percentile(wall.plain, 75).toFixed(0)} ms |\n\n`,
  );
}

const server = await startBenchServer('v1_invoice_pdf=0,v1_e_invoice_factur_x_pdf=0');

try {
  const written = await timeAlternated({ verifactu: writeRecord, ubl: writeUbl }, scaled(100));
  const writeRatio = percentile(written.verifactu, 50) / percentile(written.ubl, 50);
  process.stdout.write(
    `record with checks, 200 lines, p50 / p95 ms\n| VERI*FACTU (AEAT checks + record) | UBL en16931 (rules + XML) | VERI*FACTU / UBL p50 |\n|---|---|---|\n| ${fmt(written.verifactu)} (target ≤ 5 ms p50) | ${fmt(written.ubl)} | ${writeRatio.toFixed(2)}× |\n\n`,
  );

  await comparePdfs('/v1/invoice.pdf', withRecord, plain);
  // EN 16931 asks a due date of an invoice with an amount due (BR-CO-25).
  await comparePdfs(
    '/v1/e-invoice/factur-x.pdf',
    { ...withRecord, due_date: '2026-12-30' },
    { ...plain, due_date: '2026-12-30' },
  );
} finally {
  await server.close();
}
