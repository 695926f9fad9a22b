import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { eInvoiceXml } from '../../src/einvoice/eInvoiceDocuments.js';
import { prepareEInvoice } from '../../src/einvoice/prepareEInvoice.js';
import type { PreparedInvoice } from '../../src/invoice/prepareInvoice.js';
import { buildTotalsReport, type TotalsReport } from '../../src/invoice/totalsReport.js';
import { eInvoiceArbitrary } from '../fixtures/eInvoiceArbitrary.js';
import { EINVOICE_EXAMPLES } from '../fixtures/eInvoiceExamples.js';
import { oracleMissing, runCheckXml } from '../support/einvoiceOracle.js';

/**
 * Issue 17's corpus: the written examples and 220 generated invoices, each as CII and as UBL.
 * The official rules (CEN EN 16931 schematron + XSDs, via check-xml) must report 0 fatal for all,
 * and every amount in every XML must be the one validate answers.
 */
const GENERATED = 220;
const generated = fc.sample(eInvoiceArbitrary({ maxLines: 15 }), { numRuns: GENERATED, seed: 17 });
const corpus: [string, PreparedInvoice][] = [
  ...Object.entries(EINVOICE_EXAMPLES).map(
    ([name, body]) => [name, prepareEInvoice(body)] as [string, PreparedInvoice],
  ),
  ...generated.map(
    (body, at) =>
      [`generated-${String(at).padStart(3, '0')}`, prepareEInvoice({ ...body, invoice_number: `GEN-${at}` })] as [
        string,
        PreparedInvoice,
      ],
  ),
];

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'einvoice-corpus-'));
  for (const syntax of ['cii', 'ubl'] as const) {
    mkdirSync(join(dir, syntax));
    for (const [name, prepared] of corpus)
      writeFileSync(join(dir, syntax, `${name}.xml`), eInvoiceXml(prepared, syntax));
  }
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('the corpus covers every VAT situation of the issue', () => {
  assert.equal(corpus.length, Object.keys(EINVOICE_EXAMPLES).length + GENERATED);
  const categories = new Set(corpus.flatMap(([, prepared]) => prepared.totals.groups.map((group) => group.category)));
  assert.deepEqual([...categories].sort(), ['AE', 'E', 'G', 'K', 'S', 'Z']);
  assert.ok(
    corpus.some(([, prepared]) => prepared.totals.currency === 'JPY' && prepared.totals.discount > 0n),
    'JPY with a discount',
  );
  assert.ok(
    corpus.some(([, prepared]) => prepared.totals.groups.length >= 3 && prepared.totals.discount > 0n),
    'a discount across three groups',
  );
  assert.ok(corpus.some(([, prepared]) => prepared.invoice.document_type === 'credit_note'));
  assert.ok(corpus.some(([, prepared]) => prepared.invoice.line_items.length === 200));
  assert.ok(
    corpus.some(([, prepared]) => prepared.totals.rounding !== 0n),
    'a rounding of the amount due',
  );
});

describe('the official EN 16931 rules (check-xml)', { skip: oracleMissing }, () => {
  for (const syntax of ['cii', 'ubl'] as const) {
    test(
      `${syntax.toUpperCase()}: 0 fatal over ${Object.keys(EINVOICE_EXAMPLES).length + GENERATED} files`,
      { timeout: 600_000 },
      () => {
        const result = runCheckXml(syntax, join(dir, syntax));
        assert.equal(result.files, corpus.length, result.output.slice(-2000));
        assert.equal(result.fatal, 0, result.output.slice(-4000));
        assert.equal(result.status, 0, result.output.slice(-2000));
      },
    );
  }

  test('the oracle can fail: a tampered total is reported as BR-CO-15/16', { timeout: 120_000 }, () => {
    const [, prepared] = corpus[0]!;
    const xml = eInvoiceXml(prepared, 'cii')
      .toString('utf8')
      .replace(/<ram:GrandTotalAmount>/, '<ram:GrandTotalAmount>1');
    const file = join(dir, 'tampered.xml');
    writeFileSync(file, xml);
    const result = runCheckXml('cii', file);
    assert.notEqual(result.status, 0);
    assert.match(result.output, /fatal BR-CO-15/);
  });
});

/** Every element `name` of the XML with its text, in document order. */
const values = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<${name}(?: [^>]*)?>([^<]*)</${name}>`, 'g'))].map((match) => match[1]!);

describe('every XML amount is the one validate answers', () => {
  const expectations = (report: TotalsReport) => ({
    lines: report.lines.map((line) => line.amount.decimal),
    groups: report.tax_groups.map((group) => [group.taxable.decimal, group.tax.decimal]),
    shares: report.tax_groups.filter((group) => group.discount.minor > 0).map((group) => group.discount.decimal),
  });

  test('CII', () => {
    for (const [name, prepared] of corpus) {
      const xml = eInvoiceXml(prepared, 'cii').toString('utf8');
      const report = buildTotalsReport(prepared);
      const expected = expectations(report);
      const lineTotals = values(xml, 'ram:LineTotalAmount');
      assert.deepEqual(lineTotals.slice(0, -1), expected.lines, name);
      assert.equal(lineTotals.at(-1), report.subtotal.decimal, name);
      assert.deepEqual(
        values(xml, 'ram:BasisAmount').map((basis, at) => [basis, values(xml, 'ram:CalculatedAmount')[at]]),
        expected.groups,
        name,
      );
      assert.deepEqual(values(xml, 'ram:ActualAmount'), expected.shares, name);
      assert.deepEqual(
        values(xml, 'ram:AllowanceTotalAmount'),
        report.discount.minor > 0 ? [report.discount.decimal] : [],
        name,
      );
      assert.deepEqual(values(xml, 'ram:TaxBasisTotalAmount'), [report.taxable.decimal], name);
      assert.deepEqual(values(xml, 'ram:TaxTotalAmount'), [report.tax.decimal], name);
      assert.deepEqual(values(xml, 'ram:GrandTotalAmount'), [report.total.decimal], name);
      assert.deepEqual(values(xml, 'ram:DuePayableAmount'), [report.balance_due.decimal], name);
      assert.deepEqual(values(xml, 'ram:RoundingAmount'), report.rounding ? [report.rounding.decimal] : [], name);
      assert.deepEqual(
        values(xml, 'ram:TotalPrepaidAmount'),
        prepared.invoice.amount_paid !== undefined ? [report.amount_paid.decimal] : [],
        name,
      );
    }
  });

  test('UBL', () => {
    for (const [name, prepared] of corpus) {
      const xml = eInvoiceXml(prepared, 'ubl').toString('utf8');
      const report = buildTotalsReport(prepared);
      const expected = expectations(report);
      const lineAmounts = values(xml, 'cbc:LineExtensionAmount');
      assert.equal(lineAmounts[0], report.subtotal.decimal, name);
      assert.deepEqual(lineAmounts.slice(1), expected.lines, name);
      assert.deepEqual(
        values(xml, 'cbc:TaxableAmount').map((basis, at) => [basis, values(xml, 'cbc:TaxAmount').slice(1)[at]]),
        expected.groups,
        name,
      );
      assert.equal(values(xml, 'cbc:TaxAmount')[0], report.tax.decimal, name);
      assert.deepEqual(values(xml, 'cbc:Amount'), expected.shares, name);
      assert.deepEqual(values(xml, 'cbc:TaxExclusiveAmount'), [report.taxable.decimal], name);
      assert.deepEqual(values(xml, 'cbc:TaxInclusiveAmount'), [report.total.decimal], name);
      assert.deepEqual(values(xml, 'cbc:PayableAmount'), [report.balance_due.decimal], name);
      assert.deepEqual(
        values(xml, 'cbc:PayableRoundingAmount'),
        report.rounding ? [report.rounding.decimal] : [],
        name,
      );
      assert.ok(
        values(xml, 'cbc:PayableAmount').length === 1 && new RegExp(`currencyID="${report.currency.code}"`).test(xml),
        name,
      );
    }
  });
});
