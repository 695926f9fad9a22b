import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputRejected } from '../../../src/errors.js';
import { fatturaPAFieldsOf, produceFatturaPA } from '../../../src/einvoice/formats/fatturapa/request.js';
import { readFatturaPA } from '../../../src/einvoice/formats/fatturapa/reader.js';
import { inspectEInvoice } from '../../../src/einvoice/inbound/inspect.js';
import { INBOUND_XML_BOUNDS } from '../../../src/einvoice/inbound/limits.js';
import { parseXmlTree } from '../../../src/xml/xmlTree.js';
import { prepareProfiledEInvoice } from '../../../src/einvoice/prepareEInvoice.js';
import { joinDocumentPages } from '../../../src/render/inboundPages.js';
import { FATTURAPA_EXAMPLES } from '../../fixtures/fatturapaExamples.js';
import { withBodies } from '../../support/fatturapaBodies.js';

/** A FatturaPA file's several bodies: each a document of its own, bounded together, printed each from a new page. */
const checked = prepareProfiledEInvoice(FATTURAPA_EXAMPLES['td01-mixed-rates'], 'fatturapa');
const single = produceFatturaPA(checked.prepared, fatturaPAFieldsOf(checked)!).xml;
const numbered = (count: number) => Array.from({ length: count }, (_, at) => ({ number: `FT-${at + 1}` }));

test('each body is a document with its own number and other values, the header’s parties in each', () => {
  const documents = readFatturaPA(parseXmlTree(withBodies(single, numbered(3)), INBOUND_XML_BOUNDS));
  assert.deepEqual(
    documents.map((document) => [document.number, document.seller.name]),
    [1, 2, 3].map((at) => [`FT-${at}`, 'Alfa Forniture S.r.l.']),
  );
  // A body's other values are its own: never another body's elements.
  const paths = documents.flatMap((document) => document.otherValues.map((value) => value.path));
  assert.ok(paths.length > 0);
  assert.ok(
    paths.every((path) => !/FatturaElettronicaBody\[\d\]/.test(path)),
    paths.join(),
  );
});

test('the bound on lines holds for the whole file, not each body', () => {
  // 7 lines a body: 285 bodies are 1995 lines, 286 are 2002 (INBOUND_LIMITS.lines is 2000).
  assert.equal(inspectEInvoice(Buffer.from(withBodies(single, numbered(285))), 'xml').documents?.length, 285);
  assert.throws(
    () => inspectEInvoice(Buffer.from(withBodies(single, numbered(286))), 'xml'),
    (error) =>
      error instanceof InputRejected && error.code === 'einvoice_too_large' && /2002 lines/.test(error.message),
  );
});

test('joined pages: the first page whole, each further <main> opening a new page, one footer naming all', () => {
  const page = (number: string) =>
    `<html><body><main class="invoice"><p>${number}</p></main>\n<footer class="page-footer">Fattura <bdi>${number}</bdi></footer></body></html>`;
  assert.equal(joinDocumentPages([page('A')]), page('A'));
  assert.equal(
    joinDocumentPages([page('A'), page('B&amp;C')]),
    '<html><body><main class="invoice"><p>A</p></main>\n<main class="invoice invoice--next-document"><p>B&amp;C</p></main>\n<footer class="page-footer">Fattura <bdi>A · B&amp;C</bdi></footer></body></html>',
  );
  assert.match(joinDocumentPages(['1', '2', '3', '4'].map(page)), /<bdi>1 … 4<\/bdi>/);
});
