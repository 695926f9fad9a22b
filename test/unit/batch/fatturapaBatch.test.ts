import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prepareBatch } from '../../../src/batch/batchRequest.js';
import { produceBatch, xmlBatch } from '../../../src/batch/produceBatch.js';
import { EXAMPLE_EINVOICE } from '../../../src/einvoice/example.js';
import { EXAMPLE_FATTURAPA_REQUEST } from '../../../src/einvoice/formats/fatturapa/example.js';
import { fatturaPAFieldsOf, produceFatturaPA } from '../../../src/einvoice/formats/fatturapa/request.js';
import { prepareProfiledEInvoice } from '../../../src/einvoice/prepareEInvoice.js';
import { InputRejected } from '../../../src/errors.js';
import { specimenBatch } from '../../../src/operations/specimenBatch.js';
import { SPECIMEN_NOTE } from '../../../src/invoice/specimen.js';
import { FATTURAPA_EXAMPLES } from '../../fixtures/fatturapaExamples.js';
import { zipEntries } from '../../support/zipEntries.js';

test('format fatturapa: each item written as on the single route, with its own fatturapa fields', async () => {
  const items = [EXAMPLE_FATTURAPA_REQUEST, FATTURAPA_EXAMPLES['fpa12-public-administration']];
  const { body, count } = await produceBatch(undefined, prepareBatch({ format: 'fatturapa', invoices: items }));
  assert.equal(count, 2);
  const files = zipEntries(body);
  assert.deepEqual(
    files.map(([name]) => name),
    ['invoice-2026_042-fatturapa.xml', 'invoice-PA-2026-1-fatturapa.xml', 'manifest.json'],
  );
  items.forEach((item, at) => {
    const checked = prepareProfiledEInvoice(item, 'fatturapa');
    const { prepared } = checked;
    const fatturapa = fatturaPAFieldsOf(checked);
    assert.equal(files[at]![1], produceFatturaPA(prepared, fatturapa!).xml.toString());
  });
  assert.match(files[1]![1], /<FormatoTrasmissione>FPA12</);
});

// FatturaPA is a batch format of the registry's writers (src/batch/batchFormats.ts); paid with test
// money, each item is written again with the writer's specimen hook: the note leads each Causale.
test('format fatturapa paid with test money: every file carries the specimen note first in its Causale', async () => {
  const batch = prepareBatch({
    format: 'fatturapa',
    invoices: [EXAMPLE_FATTURAPA_REQUEST, FATTURAPA_EXAMPLES['fpa12-public-administration']],
  });
  const [marked] = specimenBatch(batch, undefined);
  const specimen = zipEntries((await produceBatch(undefined, marked)).body).slice(0, 2);
  for (const [name, xml] of specimen) assert.match(xml, /<Causale>SPECIMEN - paid with test USDC\./, name);
  const paid = zipEntries((await produceBatch(undefined, batch)).body).slice(0, 2);
  for (const [name, xml] of paid) assert.doesNotMatch(xml, /SPECIMEN/, name);
});

test('a CII batch paid with test money carries TestIndicator and the note; UBL the note (it has no test flag)', async () => {
  const items = [EXAMPLE_EINVOICE, { ...EXAMPLE_EINVOICE, invoice_number: 'X-2' }];
  for (const format of ['cii', 'ubl'] as const) {
    const [marked] = specimenBatch(prepareBatch({ format, invoices: items }), undefined);
    const files = zipEntries(xmlBatch(marked).body).slice(0, 2);
    for (const [name, xml] of files) {
      assert.equal(xml.split(SPECIMEN_NOTE).length, 2, `${name}: the note once`);
      assert.equal(xml.includes('<ram:TestIndicator><udt:Indicator>true</udt:Indicator>'), format === 'cii', name);
    }
  }
});

test('an item the SDI would refuse refuses the batch, its control code at the item’s path', () => {
  const bad = {
    ...EXAMPLE_FATTURAPA_REQUEST,
    seller: { ...EXAMPLE_FATTURAPA_REQUEST.seller, vat_id: 'IT01234567890' },
  };
  assert.throws(
    () => prepareBatch({ format: 'fatturapa', invoices: [EXAMPLE_FATTURAPA_REQUEST, bad] }),
    (error: unknown) =>
      error instanceof InputRejected &&
      JSON.stringify(error.issues?.map((issue) => [issue.code, issue.path])) ===
        JSON.stringify([['00301', 'invoices[1].seller.vat_id']]),
  );
});
