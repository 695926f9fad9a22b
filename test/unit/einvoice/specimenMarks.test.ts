import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { eInvoiceXml } from '../../../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_EINVOICE } from '../../../src/einvoice/example.js';
import { prepareEInvoice } from '../../../src/einvoice/prepareEInvoice.js';
import { specimenXml } from '../../../src/einvoice/specimenMarks.js';
import { SPECIMEN_NOTE } from '../../../src/invoice/specimen.js';
import { oracleMissing, runCheckXml } from '../../support/einvoiceOracle.js';

const prepared = prepareEInvoice({ ...EXAMPLE_EINVOICE, notes: 'Thank you.' });

test('a specimen CII is flagged as a test document and carries the specimen note before the invoice note', () => {
  const xml = specimenXml(prepared, 'cii').toString();
  assert.match(
    xml,
    /<rsm:ExchangedDocumentContext><ram:TestIndicator><udt:Indicator>true<\/udt:Indicator><\/ram:TestIndicator>/,
  );
  assert.ok(xml.includes(`<ram:Content>${SPECIMEN_NOTE}\n\nThank you.</ram:Content>`));
  assert.ok(!eInvoiceXml(prepared, 'cii').toString().includes('TestIndicator'));
});

test('a specimen UBL carries the specimen note', () => {
  const xml = specimenXml(prepared, 'ubl').toString();
  assert.ok(xml.includes(`<cbc:Note>${SPECIMEN_NOTE}\n\nThank you.</cbc:Note>`));
  assert.ok(!eInvoiceXml(prepared, 'ubl').toString().includes('SPECIMEN'));
});

test('specimens stay valid EN 16931 documents (the official schemas and schematron)', { skip: oracleMissing }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'specimen-'));
  for (const syntax of ['cii', 'ubl'] as const) {
    const path = join(dir, `specimen.${syntax}.xml`);
    writeFileSync(path, specimenXml(prepared, syntax));
    const result = runCheckXml(syntax, path);
    assert.equal(result.fatal, 0, `${syntax}: ${result.output}`);
  }
});
