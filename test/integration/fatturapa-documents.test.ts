import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fatturaPAFieldsOf, produceFatturaPA } from '../../src/einvoice/formats/fatturapa/request.js';
import { prepareProfiledEInvoice } from '../../src/einvoice/prepareEInvoice.js';
import { FATTURAPA_EXAMPLES } from '../fixtures/fatturapaExamples.js';
import { normalizeText, pdfPages } from '../fixtures/pdfTools.js';
import { startRenderingApp, type TestApp } from '../support/testApp.js';

/**
 * A FatturaPA file with several FatturaElettronicaBody holds several documents (one seller, one
 * buyer, one header): inspect lists each with its own totals and reads the one the `document`
 * argument names (1 by default), render.pdf prints that one, and a document the file does not
 * hold is a 400 naming `document`, never charged. The file is built here from three of the
 * service's own FatturaPA, the second one's ImportoTotaleDocumento tampered.
 */
let app: TestApp;
before(async () => (app = await startRenderingApp()), { timeout: 60_000 });
after(async () => await app?.close());

const ownXml = (name: keyof typeof FATTURAPA_EXAMPLES, number: string) => {
  const checked = prepareProfiledEInvoice({ ...FATTURAPA_EXAMPLES[name], invoice_number: number }, 'fatturapa');
  return produceFatturaPA(checked.prepared, fatturaPAFieldsOf(checked)!).xml.toString('utf8');
};
const bodyOf = (xml: string) =>
  xml.slice(xml.indexOf('<FatturaElettronicaBody>'), xml.indexOf('</FatturaElettronicaBody>') + 25);

// Three documents of one seller to one buyer: the header of the first, the bodies of all three.
const first = ownXml('td01-mixed-rates', 'LOT-1');
const second = bodyOf(ownXml('td01-mixed-rates', 'LOT-2')).replace(
  /<ImportoTotaleDocumento>[^<]*</,
  '<ImportoTotaleDocumento>9999.99<',
);
const third = bodyOf(ownXml('td01-mixed-rates', 'LOT-3'));
const LOT = first.replace('</FatturaElettronicaBody>', `</FatturaElettronicaBody>\n${second}\n${third}`);

const post = (path: string, body: string, type = 'application/xml') =>
  fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body,
    signal: AbortSignal.timeout(60_000),
  });

interface Answer {
  invoice_number: string;
  source: { documents?: number; document?: number };
  documents?: {
    document: number;
    read: boolean;
    invoice_number: string;
    totals: { differences: { field: string }[] };
  }[];
  totals: { differences: unknown[] };
  notes: string[];
}

describe('inspect', () => {
  test('lists every document with its own totals; the tampered second shows its difference', async () => {
    assert.ok(LOT.includes('LOT-2') && LOT.split('<FatturaElettronicaBody>').length === 4);
    const response = await post('/v1/e-invoice/inspect', LOT);
    assert.equal(response.status, 200);
    const answer = (await response.json()) as Answer;
    assert.equal(answer.invoice_number, 'LOT-1');
    assert.deepEqual(answer.source, { format: 'xml', embedded_files: null, documents: 3, document: 1 });
    assert.deepEqual(
      answer.documents!.map((document) => [document.document, document.read, document.invoice_number]),
      [
        [1, true, 'LOT-1'],
        [2, false, 'LOT-2'],
        [3, false, 'LOT-3'],
      ],
    );
    assert.deepEqual(answer.documents![0]!.totals.differences, []);
    assert.ok(answer.documents![1]!.totals.differences.some((difference) => difference.field === 'grand_total'));
    assert.deepEqual(answer.documents![2]!.totals.differences, []);
    assert.ok(answer.notes.some((note) => /Document 2 \(LOT-2\) states totals its lines do not give/.test(note)));
  });

  test('the document argument reads another, as a query parameter or in the JSON form', async () => {
    const byQuery = (await (await post('/v1/e-invoice/inspect?document=2', LOT)).json()) as Answer;
    assert.equal(byQuery.invoice_number, 'LOT-2');
    assert.equal(byQuery.source.document, 2);
    assert.ok(byQuery.totals.differences.length > 0);
    const byJson = (await (
      await post('/v1/e-invoice/inspect', JSON.stringify({ xml: LOT, document: 3 }), 'application/json')
    ).json()) as Answer;
    assert.equal(byJson.invoice_number, 'LOT-3');
  });

  test('a document the file does not hold, or not a number: 400 naming document', async () => {
    for (const [path, code] of [
      ['/v1/e-invoice/inspect?document=4', 'einvoice_document_not_found'],
      ['/v1/e-invoice/inspect?document=two', 'validation_failed'],
      ['/v1/e-invoice/inspect?document=0', 'validation_failed'],
    ] as const) {
      const response = await post(path, LOT);
      assert.equal(response.status, 400, path);
      const error = (await response.json()) as { error: { code: string; issues: { path: string }[] } };
      assert.equal(error.error.code, code, path);
      assert.equal(error.error.issues[0]!.path, 'document', path);
    }
    // A file of one document has document 1 only.
    const single = await post('/v1/e-invoice/inspect?document=2', first);
    assert.equal(single.status, 400);
  });
});

test('render.pdf prints the document named, and says the file holds others', { timeout: 120_000 }, async () => {
  // Without the argument the whole file is printed (fatturapa-render.test.ts); with it, one document.
  for (const [document, number] of [
    [1, 'LOT-1'],
    [3, 'LOT-3'],
  ] as const) {
    const query = `?locale=en&document=${document}`;
    const response = await post(`/v1/e-invoice/render.pdf${query}`, LOT);
    assert.equal(response.status, 200, String(document));
    const text = normalizeText(pdfPages(Buffer.from(await response.arrayBuffer())).join('\n')).replace(/\s+/g, ' ');
    assert.ok(text.includes(number), `${number} printed`);
    for (const other of ['LOT-1', 'LOT-2', 'LOT-3'].filter((name) => name !== number && name !== 'LOT-2'))
      assert.ok(!text.includes(`Invoice ${other}`), `${other} is not this copy's number`);
    // The page's own words (the label catalog), no element name.
    assert.ok(text.includes(`The file holds 3 documents; this is document ${document}.`), text.slice(0, 600));
  }
  const missing = await post('/v1/e-invoice/render.pdf?document=9', LOT);
  assert.equal(missing.status, 400);
});
