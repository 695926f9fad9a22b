import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { fatturaPAReport, fatturaPAFieldsOf, produceFatturaPA } from '../../src/einvoice/formats/fatturapa/request.js';
import { checkEInvoice, type ProfiledInvoice } from '../../src/einvoice/prepareEInvoice.js';
import { FATTURAPA_EXAMPLES, fatturapaArbitrary } from '../fixtures/fatturapaExamples.js';
import { oracleMissing, runCheckXml } from '../support/einvoiceOracle.js';

/**
 * The FatturaPA corpus: the written examples (TD01, TD04, TD24, mixed rates, exempt with stamp
 * duty, a professional with withholding and pension fund, foreign buyers, FPA12) and 210 generated
 * invoices pass the service's SDI checks, the official FatturaPA 1.2.3 schema (check-xml
 * fatturapa) with 0 errors, and carry exactly the amounts validate answers.
 */
const GENERATED = 210;

const accepted = (name: string, body: unknown): [string, ProfiledInvoice] => {
  const { issues, ...profiled } = checkEInvoice(JSON.parse(JSON.stringify(body)));
  assert.deepEqual(issues, [], `${name} passes the SDI checks`);
  return [name, profiled];
};
const corpus = [
  ...Object.entries(FATTURAPA_EXAMPLES).map(([name, body]) => accepted(name, body)),
  ...fc
    .sample(fatturapaArbitrary, { numRuns: GENERATED, seed: 41 })
    .map((body, at) => accepted(`generated-${at}`, { ...body, invoice_number: `GEN-${at}` })),
];

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'fatturapa-'));
  for (const [name, checked] of corpus)
    writeFileSync(join(dir, `${name}.xml`), produceFatturaPA(checked.prepared, fatturaPAFieldsOf(checked)!).xml);
});
after(() => rmSync(dir, { recursive: true, force: true }));

const all = (xml: string, element: string) =>
  [...xml.matchAll(new RegExp(`<${element}>([^<]*)</${element}>`, 'g'))].map((match) => match[1]);

test('the corpus covers each case the format must', () => {
  const invoices = corpus.map(([, profiled]) => profiled);
  assert.ok(invoices.length >= 200 + 9);
  const report = (at: number) => fatturaPAReport(invoices[at]!.prepared, fatturaPAFieldsOf(invoices[at]!)!);
  const types = new Set(invoices.map((_, at) => report(at).document_type));
  assert.deepEqual([...types].sort(), ['TD01', 'TD04', 'TD24']);
  assert.ok(
    invoices.some((_, at) => report(at).summaries.length >= 3),
    'mixed rates',
  );
  assert.ok(
    invoices.some((_, at) => report(at).stamp_duty === '2.00'),
    'stamp duty',
  );
  assert.ok(
    invoices.some((_, at) => report(at).withholding && report(at).pension_fund),
    'professional',
  );
  assert.ok(
    invoices.some((profiled) => profiled.prepared.invoice.buyer.country !== 'IT'),
    'foreign buyer',
  );
  assert.ok(
    invoices.some((profiled) => fatturaPAFieldsOf(profiled)?.transmission_format === 'FPA12'),
    'FPA12',
  );
  assert.ok(
    invoices.some((profiled) => profiled.prepared.invoice.currency === 'JPY'),
    'a 0-decimal currency',
  );
});

test('every amount in the XML is the one validate answers', () => {
  for (const [name, checked] of corpus) {
    const xml = readFileSync(join(dir, `${name}.xml`), 'utf8');
    const report = fatturaPAReport(checked.prepared, fatturaPAFieldsOf(checked)!);
    const twoDecimals = (text: string) => (text.includes('.') ? text : `${text}.00`);
    assert.deepEqual(all(xml, 'ImportoTotaleDocumento'), [twoDecimals(report.total)], name);
    assert.deepEqual(
      all(xml, 'ImponibileImporto'),
      report.summaries.map((s) => twoDecimals(s.taxable)),
      name,
    );
    assert.deepEqual(
      all(xml, 'Imposta'),
      report.summaries.map((s) => twoDecimals(s.tax)),
      name,
    );
    if (!report.pension_fund && checked.prepared.totals.amountPaid === 0n && !report.withholding) {
      // Without a pension fund the summaries are the JSON invoice's own VAT groups and total.
      assert.equal(report.total, validateTotal(checked.prepared), name);
    }
  }
});

function validateTotal(prepared: ProfiledInvoice['prepared']): string {
  const digits = prepared.totals.digits;
  const text = prepared.totals.total.toString().padStart(digits + 1, '0');
  return digits ? `${text.slice(0, -digits)}.${text.slice(-digits)}` : text;
}

test('check-xml fatturapa: the whole corpus has 0 errors', { skip: oracleMissing }, () => {
  const result = runCheckXml('fatturapa', dir);
  assert.equal(result.files, corpus.length, result.output.slice(0, 2000));
  assert.equal(result.fatal, 0, result.output.slice(0, 4000));
  assert.doesNotMatch(result.summary, /XSD invalid/, result.output.slice(0, 4000));
  assert.equal(result.status, 0);
});

test('check-xml fatturapa fails a tampered file (the oracle can say no)', { skip: oracleMissing }, () => {
  const tampered = mkdtempSync(join(tmpdir(), 'fatturapa-tampered-'));
  try {
    const xml = readFileSync(join(dir, 'td01-mixed-rates.xml'), 'utf8');
    writeFileSync(join(tampered, 'bad.xml'), xml.replace('<CAP>40121</CAP>', '<CAP>4012</CAP>'));
    const result = runCheckXml('fatturapa', tampered);
    assert.notEqual(result.status, 0, result.output);
    assert.match(result.summary, /1 XSD invalid/, result.output);
  } finally {
    rmSync(tampered, { recursive: true, force: true });
  }
});
