/**
 * Inbound e-invoices, in one run: `npm run bench:inbound`. Starts the service itself (renderer with
 * two pages, one compute thread, both PDF routes priced 0 so no payment round trip) on 127.0.0.1.
 * 1. inspect of a 200-line invoice (the CII XML this service writes for test/fixtures/invoices.ts's
 *    200-line invoice): the read itself in this thread, and POST /v1/e-invoice/inspect over HTTP,
 *    which reads on the compute pool (target ≤ 20 ms).
 * 2. render.pdf of that XML against /v1/invoice.pdf of the same invoice sent as JSON, samples
 *    alternated so that drift hits both alike; the ratio of the p50s is the figure (target ≤ 1.2×).
 * 3. inspect of a 200-line FatturaPA signed in BER (`openssl cms -sign -stream`, a throwaway
 *    certificate made here) against the same XML sent bare, read in this thread and alternated;
 *    target ≤ 1.2× (the envelope is re-encoded as DER and opened in one linear pass).
 * BENCH_SCALE scales the sample counts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eInvoiceXml } from '../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_FATTURAPA_REQUEST } from '../src/einvoice/formats/fatturapa/example.js';
import { fatturaPAFieldsOf, produceFatturaPA } from '../src/einvoice/formats/fatturapa/request.js';
import { inspectEInvoice } from '../src/einvoice/inbound/inspect.js';
import { checkEInvoice, prepareEInvoice } from '../src/einvoice/prepareEInvoice.js';
import { invoiceWithItems } from '../test/fixtures/invoices.js';
import { fmt, startBenchServer, timeAlternated } from './benchServer.js';
import { scaled } from './scale.js';
import { percentile } from './measure.js';

const invoice = {
  ...invoiceWithItems(200, { currency: 'EUR' }),
  seller: { name: 'Seller GmbH', country: 'DE', vat_id: 'DE123456789' },
  buyer: { name: 'Buyer AG', country: 'DE' },
  due_date: undefined,
  payment_instructions: 'Within 30 days',
};
const xml = eInvoiceXml(prepareEInvoice(invoice), 'cii');

/** A 200-line FatturaPA and the same file signed in BER, as Italian signing tools write it. */
function signedFatturaPA(): { bare: Buffer; ber: Buffer } {
  const line_items = Array.from({ length: 200 }, (_, at) => ({
    description: `Riga ${at + 1}: consulenza tecnica e progettazione`,
    quantity: (at % 7) + 0.5,
    unit_price: 10 + (at % 13) * 1.25,
    tax_rate: [22, 10, 4][at % 3]!,
  }));
  const checked = checkEInvoice({ ...EXAMPLE_FATTURAPA_REQUEST, line_items });
  const bare = produceFatturaPA(checked.prepared, fatturaPAFieldsOf(checked)!).xml;
  const dir = mkdtempSync(join(tmpdir(), 'bench-p7m-'));
  try {
    const file = (name: string) => join(dir, name);
    writeFileSync(file('in.xml'), bare);
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=Bench', '-keyout', file('k'), '-out', file('c')], { stdio: 'ignore' }); // prettier-ignore
    execFileSync('openssl', ['cms', '-sign', '-nodetach', '-binary', '-stream', '-outform', 'DER', '-in', file('in.xml'), '-signer', file('c'), '-inkey', file('k'), '-out', file('in.xml.p7m')]); // prettier-ignore
    return { bare, ber: readFileSync(file('in.xml.p7m')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const fattura = signedFatturaPA();

const server = await startBenchServer('v1_invoice_pdf=0,v1_e_invoice_render_pdf=0');

try {
  const { inline } = await timeAlternated({ inline: () => inspectEInvoice(xml, 'xml') }, scaled(50));
  const http: number[] = [];
  for (let at = 0; at < scaled(50) + scaled(5); at++) {
    const ms = await server.post('/v1/e-invoice/inspect', 'application/xml', xml);
    if (at >= scaled(5)) http.push(ms);
  }
  process.stdout.write(
    `inspect, 200-line CII (${xml.length} bytes), p50 / p95 ms\n| read in this thread | POST /v1/e-invoice/inspect (compute pool, HTTP) |\n|---|---|\n| ${fmt(inline, 1)} | ${fmt(http, 1)} |\n\n`,
  );

  const signed = await timeAlternated(
    { bare: () => inspectEInvoice(fattura.bare, 'xml'), ber: () => inspectEInvoice(fattura.ber, 'xml') },
    scaled(50),
  );
  process.stdout.write(
    `inspect, 200-line FatturaPA (${fattura.bare.length} bytes) bare and in a BER .p7m (${fattura.ber.length} bytes), p50 / p95 ms\n| XML bare | BER .p7m | .p7m / bare p50 |\n|---|---|---|\n| ${fmt(signed.bare, 1)} | ${fmt(signed.ber, 1)} | ${(percentile(signed.ber, 50) / percentile(signed.bare, 50)).toFixed(2)}× (target ≤ 1.2×) |\n\n`,
  );

  const samples = await server.renderPair(JSON.stringify(invoice), Buffer.from(xml));
  const ratio = percentile(samples.document, 50) / percentile(samples.json, 50);
  process.stdout.write(
    `render, 200 lines, p50 / p95 ms\n| /v1/invoice.pdf (JSON) | /v1/e-invoice/render.pdf (CII XML) | render.pdf / invoice.pdf p50 |\n|---|---|---|\n| ${fmt(samples.json, 1)} | ${fmt(samples.document, 1)} | ${ratio.toFixed(2)}× (target ≤ 1.2×) |\n`,
  );
} finally {
  await server.close();
}
