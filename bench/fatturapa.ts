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
import { eInvoiceXml } from '../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_FATTURAPA_REQUEST } from '../src/einvoice/formats/fatturapa/example.js';
import { fatturaPAFieldsOf, produceFatturaPA } from '../src/einvoice/formats/fatturapa/request.js';
import { checkEInvoice } from '../src/einvoice/prepareEInvoice.js';
import { fmt, startBenchServer, timeAlternated } from './benchServer.js';
import { scaled } from './scale.js';
import { percentile } from './measure.js';

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

const server = await startBenchServer('v1_invoice_pdf=0,v1_e_invoice_render_pdf=0');

try {
  const written = await timeAlternated({ fatturapa: writeFatturaPA, ubl: writeUbl }, scaled(100));
  const writeRatio = percentile(written.fatturapa, 50) / percentile(written.ubl, 50);
  process.stdout.write(
    `write with checks, 200 lines, p50 / p95 ms\n| FatturaPA (SDI checks + XML) | UBL en16931 (rules + XML) | FatturaPA / UBL p50 |\n|---|---|---|\n| ${fmt(written.fatturapa)} (target ≤ 5 ms p50) | ${fmt(written.ubl)} | ${writeRatio.toFixed(2)}× |\n\n`,
  );

  const samples = await server.renderPair(JSON.stringify(plain), xml);
  const ratio = percentile(samples.document, 50) / percentile(samples.json, 50);
  process.stdout.write(
    `render, 200 lines, p50 / p95 ms\n| /v1/invoice.pdf (JSON) | /v1/e-invoice/render.pdf (FatturaPA) | render.pdf / invoice.pdf p50 |\n|---|---|---|\n| ${fmt(samples.json)} | ${fmt(samples.document)} | ${ratio.toFixed(2)}× (target ≤ 1.2×) |\n`,
  );
} finally {
  await server.close();
}
