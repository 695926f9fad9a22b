/**
 * Spain's VERI*FACTU, in one run: `npm run bench:verifactu`. Starts the service itself (renderer
 * with two pages, one compute thread, /v1/invoice.pdf priced 0) on 127.0.0.1.
 * 1. The 200-line record with AEAT's checks in this thread (checkVerifactuRequest + the message),
 *    against the same invoice's UBL under en16931 (checks + XML), alternated; target ≤ 5 ms p50.
 * 2. /v1/invoice.pdf of that invoice with its `verifactu` object (the QR tributario printed) against
 *    the same invoice without it, samples alternated; the ratio of the p50s is the figure (target ≤ 1.05×).
 * BENCH_SCALE scales the sample counts.
 */
import { eInvoiceXml } from '../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_VERIFACTU_REQUEST } from '../src/einvoice/formats/verifactu/example.js';
import { checkVerifactuRequest, verifactuXml } from '../src/einvoice/formats/verifactu/request.js';
import { DEFAULT_SYSTEM } from '../src/einvoice/formats/verifactu/system.js';
import { checkEInvoice } from '../src/einvoice/prepareEInvoice.js';
import { fmt, startBenchServer, timeAlternated } from './benchServer.js';
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

const server = await startBenchServer('v1_invoice_pdf=0');

try {
  const written = await timeAlternated({ verifactu: writeRecord, ubl: writeUbl }, scaled(100));
  const writeRatio = percentile(written.verifactu, 50) / percentile(written.ubl, 50);
  process.stdout.write(
    `record with checks, 200 lines, p50 / p95 ms\n| VERI*FACTU (AEAT checks + record) | UBL en16931 (rules + XML) | VERI*FACTU / UBL p50 |\n|---|---|---|\n| ${fmt(written.verifactu)} (target ≤ 5 ms p50) | ${fmt(written.ubl)} | ${writeRatio.toFixed(2)}× |\n\n`,
  );

  const samples = { qr: [] as number[], plain: [] as number[] };
  const bodies = { qr: JSON.stringify(withRecord), plain: JSON.stringify(plain) };
  const run = (which: 'qr' | 'plain') => server.post('/v1/invoice.pdf', 'application/json', bodies[which]);
  for (let at = 0; at < 3; at++) {
    await run('qr');
    await run('plain');
  }
  for (let at = 0; at < scaled(60); at++) {
    const order = at % 2 === 0 ? (['qr', 'plain'] as const) : (['plain', 'qr'] as const);
    for (const which of order) samples[which].push(await run(which));
  }
  const ratio = percentile(samples.qr, 50) / percentile(samples.plain, 50);
  process.stdout.write(
    `/v1/invoice.pdf, 200 lines, p50 / p95 ms\n| with the QR tributario | without | with / without p50 |\n|---|---|---|\n| ${fmt(samples.qr)} | ${fmt(samples.plain)} | ${ratio.toFixed(3)}× (target ≤ 1.05×) |\n`,
  );
} finally {
  await server.close();
}
