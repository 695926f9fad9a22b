import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { InputRejected } from '../../../src/errors.js';
import { inspectEInvoice } from '../../../src/einvoice/inbound/inspect.js';
import { readInbound } from '../../../src/einvoice/inbound/readInbound.js';
import { CORPUS_ABSENT_MESSAGE, CORPUS_PRESENT, SHARED_EINVOICE } from '../../support/inboundCorpus.js';

/**
 * ZUGFeRD 1.0 read as a binding of the CII mapping (src/einvoice/formats/zugferd1/): a document of
 * our own making (test/fixtures/zugferd1/), the public corpus of ../shared/einvoice/corpus/zugferd1
 * against its MANIFEST.tsv, the PDF and Peppol-envelope wrappings, and the hostile shapes.
 */
const fixture = readFileSync(new URL('../../fixtures/zugferd1/comfort-two-rates.xml', import.meta.url));
const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof InputRejected, String(error));
    return { code: error.code, message: error.message };
  }
  assert.fail('expected a refusal');
};

/** A minimal PDF with one embedded file, unfiltered (the scanner reads /Type /EmbeddedFile streams). */
const pdfWith = (file: Buffer) =>
  Buffer.concat([
    Buffer.from(
      `%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n2 0 obj\n<< /Type /EmbeddedFile /Length ${file.length} >>\nstream\n`,
      'latin1',
    ),
    file,
    Buffer.from('\nendstream\nendobj\n%%EOF\n', 'latin1'),
  ]);

const envelope = (mimeType: string, content: Buffer) =>
  Buffer.from(
    `<?xml version="1.0"?>
<StandardBusinessDocument xmlns="http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader">
  <StandardBusinessDocumentHeader><HeaderVersion>1.0</HeaderVersion></StandardBusinessDocumentHeader>
  <BinaryContent xmlns="http://peppol.eu/xsd/ticc/envelope/1.0" mimeType="${mimeType}" encoding="base64">${content.toString('base64')}</BinaryContent>
</StandardBusinessDocument>`,
  );

describe('a ZUGFeRD 1.0 document of our own making', () => {
  test('is reported as ZUGFeRD 1.0 COMFORT with its totals, equal to those its lines give', () => {
    const answer = inspectEInvoice(fixture, 'xml');
    assert.equal(answer.syntax, 'zugferd1');
    assert.equal(answer.document, 'CrossIndustryDocument');
    assert.deepEqual(answer.customization, {
      id: 'urn:ferd:CrossIndustryDocument:invoice:1p0:comfort',
      name: 'ZUGFeRD 1.0 COMFORT',
      known: true,
    });
    assert.equal(answer.invoice_number, 'ZF1-2026-007');
    assert.equal(answer.totals.document.grand_total, '411.57');
    assert.equal(answer.totals.document.tax_total, '60.57');
    assert.equal(answer.totals.document.due_payable, '411.57');
    assert.deepEqual(answer.totals.differences, []);
    assert.equal(answer.rules.valid, true);
    assert.equal(answer.reissue.valid, true);
    assert.deepEqual(
      answer.invoice.line_items.map((line) => [line.description, line.quantity, line.unit_price, line.tax_rate]),
      [
        ['Reparatur Kaffeemaschine', 3, 100, 19],
        ['Entkalker (Flasche)', 2, 25.5, 7],
      ],
    );
    const { invoice } = readInbound(fixture, 'xml');
    assert.equal(invoice.syntaxLabel, 'ZUGFeRD 1.0');
    assert.equal(invoice.seller.vatId, 'DE123456789');
    assert.equal(invoice.paymentMeans[0]?.account, 'DE89370400440532013000');
    assert.deepEqual(
      invoice.references.find((reference) => reference.bt === 'BT-13'),
      { bt: 'BT-13', value: 'PO-4711' },
    );
  });

  test('a date no calendar has is kept as sent (a corpus file has 20139102), not turned into an ISO date', () => {
    const odd = fixture.toString('utf8').replace('20261102', '20269102');
    const { invoice } = readInbound(Buffer.from(odd), 'xml');
    assert.equal(invoice.issueDate, '20269102');
    assert.equal(readInbound(fixture, 'xml').invoice.issueDate, '2026-11-02');
  });

  test('embedded in a PDF, and that PDF inside a Peppol envelope, it reads the same', () => {
    const fromPdf = readInbound(pdfWith(fixture), 'pdf');
    assert.equal(fromPdf.invoice.number, 'ZF1-2026-007');
    assert.equal(fromPdf.source.embeddedFiles, 1);
    const enveloped = readInbound(envelope('application/pdf', pdfWith(fixture)), 'xml');
    assert.equal(enveloped.invoice.envelope, 'sbdh');
    assert.equal(enveloped.invoice.totals.grandTotal, '411.57');
    assert.equal(enveloped.source.format, 'pdf');
  });

  test('an envelope around another binary, or a PDF without an e-invoice, is refused with a clear code', () => {
    assert.equal(
      codeOf(() => readInbound(envelope('image/png', Buffer.from('png')), 'xml')).code,
      'einvoice_binary_unsupported',
    );
    assert.equal(
      codeOf(() => readInbound(envelope('application/pdf', Buffer.from('not a pdf')), 'xml')).code,
      'einvoice_binary_unsupported',
    );
    assert.equal(
      codeOf(() => readInbound(envelope('application/pdf', pdfWith(Buffer.from('<a/>'))), 'xml')).code,
      'pdf_no_einvoice',
    );
  });

  test('hostile shapes meet the same refusals as CII', () => {
    const text = fixture.toString('utf8');
    const withDoctype = text.replace(
      '<rsm:CrossIndustryDocument',
      '<!DOCTYPE x [<!ENTITY a "b">]><rsm:CrossIndustryDocument',
    );
    assert.equal(codeOf(() => readInbound(Buffer.from(withDoctype), 'xml')).code, 'xml_doctype_refused');
    const deep = text.replace('<ram:Name>RECHNUNG</ram:Name>', `${'<ram:X>'.repeat(60)}${'</ram:X>'.repeat(60)}`);
    assert.equal(codeOf(() => readInbound(Buffer.from(deep), 'xml')).code, 'xml_too_deep');
    const broken = text.replace('</rsm:HeaderExchangedDocument>', '');
    assert.equal(codeOf(() => readInbound(Buffer.from(broken), 'xml')).code, 'xml_malformed');
    const huge = text.replace('<ram:Name>RECHNUNG</ram:Name>', '<ram:X/>'.repeat(200_001));
    assert.equal(codeOf(() => readInbound(Buffer.from(huge), 'xml')).code, 'einvoice_too_large');
  });

  test('VAT without a category code (BASIC has none): a positive rate is read as S, and the totals agree', () => {
    const basic = Buffer.from(fixture.toString('utf8').replaceAll('<ram:CategoryCode>S</ram:CategoryCode>', ''));
    const { invoice } = readInbound(basic, 'xml');
    assert.deepEqual(
      invoice.breakdown.map((group) => [group.category, group.rate]),
      [
        ['S', '19.00'],
        ['S', '7.00'],
      ],
    );
    assert.deepEqual(
      invoice.lines.map((line) => line.category),
      ['S', 'S'],
    );
    assert.deepEqual(inspectEInvoice(basic, 'xml').totals.differences, []);
  });

  test('an unknown root names what was expected, ZUGFeRD 1.0 included', () => {
    const refusal = codeOf(() => readInbound(Buffer.from('<Order xmlns="urn:example:order"/>'), 'xml'));
    assert.equal(refusal.code, 'einvoice_unknown_root');
    assert.match(refusal.message, /\{urn:example:order\}Order/);
    // The format modules' roots sit between UBL and ZUGFeRD 1.0, in registry order (FA(3), FatturaPA, …).
    assert.match(
      refusal.message,
      /CrossIndustryInvoice, a UBL 2\.1 Invoice or CreditNote, a KSeF FA\(3\) Faktura, an Italian FatturaElettronica \(also signed, \.p7m\), a ZUGFeRD 1\.0 CrossIndustryDocument/,
    );
  });
});

describe("ZUGFeRD 1.0's own ways with amounts, read as its documents' totals count them", () => {
  const text = fixture.toString('utf8');
  const replaced = (pairs: [string, string][]) =>
    Buffer.from(
      pairs.reduce((xml, [from, to]) => {
        assert.ok(xml.includes(from), from);
        return xml.replace(from, to);
      }, text),
    );

  test('an allowance written negative on a positive basis is an allowance of that size (the sign of its basis)', () => {
    // 2 % off the 19 % lines, written -6.00 as Intarsys' Kostenrechnung writes its Skonto.
    const allowance = `<ram:SpecifiedTradeAllowanceCharge>
        <ram:ChargeIndicator><udt:Indicator>false</udt:Indicator></ram:ChargeIndicator>
        <ram:BasisAmount currencyID="EUR">300.00</ram:BasisAmount>
        <ram:ActualAmount currencyID="EUR">-6.00</ram:ActualAmount>
        <ram:Reason>Skonto</ram:Reason>
        <ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>19.00</ram:ApplicablePercent></ram:CategoryTradeTax>
      </ram:SpecifiedTradeAllowanceCharge>
      <ram:SpecifiedTradeSettlementMonetarySummation>`;
    const answer = inspectEInvoice(
      replaced([
        [
          '<ram:CalculatedAmount currencyID="EUR">57.00</ram:CalculatedAmount>',
          '<ram:CalculatedAmount currencyID="EUR">55.86</ram:CalculatedAmount>',
        ],
        [
          '<ram:BasisAmount currencyID="EUR">300.00</ram:BasisAmount>',
          '<ram:BasisAmount currencyID="EUR">294.00</ram:BasisAmount>',
        ],
        ['<ram:SpecifiedTradeSettlementMonetarySummation>', allowance],
        ['<ram:AllowanceTotalAmount currencyID="EUR">0.00<', '<ram:AllowanceTotalAmount currencyID="EUR">6.00<'],
        ['<ram:TaxBasisTotalAmount currencyID="EUR">351.00<', '<ram:TaxBasisTotalAmount currencyID="EUR">345.00<'],
        ['<ram:TaxTotalAmount currencyID="EUR">60.57<', '<ram:TaxTotalAmount currencyID="EUR">59.43<'],
        ['<ram:GrandTotalAmount currencyID="EUR">411.57<', '<ram:GrandTotalAmount currencyID="EUR">404.43<'],
        ['<ram:DuePayableAmount currencyID="EUR">411.57<', '<ram:DuePayableAmount currencyID="EUR">404.43<'],
      ]),
      'xml',
    );
    assert.equal(answer.totals.document.allowance_total, '6.00');
    assert.equal(answer.totals.recomputed.allowance_total, '6.00');
    assert.deepEqual(answer.totals.differences, []);
  });

  test('a line that states no price (as BASIC lines do) has no line net to recompute', () => {
    const withoutPrice = replaced([
      [
        '<ram:NetPriceProductTradePrice><ram:ChargeAmount currencyID="EUR">25.50</ram:ChargeAmount></ram:NetPriceProductTradePrice>',
        '',
      ],
    ]);
    const answer = inspectEInvoice(withoutPrice, 'xml');
    assert.deepEqual(answer.totals.differences, []);
    const read = readInbound(withoutPrice, 'xml');
    assert.equal('invoice' in read && read.invoice.lines[1]!.price, undefined);
    assert.equal('invoice' in read && read.invoice.lines[1]!.net, '51.00');
  });
});

describe('the ZUGFeRD 1.0 corpus', { skip: CORPUS_PRESENT ? false : CORPUS_ABSENT_MESSAGE }, () => {
  test('every file: ZUGFeRD 1.0 with its profile, and its totals as MANIFEST.tsv lists them', () => {
    const folder = join(SHARED_EINVOICE, 'corpus', 'zugferd1');
    const [header, ...rows] = readFileSync(join(folder, 'MANIFEST.tsv'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split('\t'));
    const columns = ['BT106_line_total', 'BT109_tax_basis', 'BT110_tax_total', 'BT112_grand_total', 'BT115_due'];
    const fields = ['line_total', 'tax_basis', 'tax_total', 'grand_total', 'due_payable'] as const;
    assert.ok(rows.length >= 10, `${rows.length} files`);
    for (const row of rows) {
      const value = (name: string) => row[header!.indexOf(name)]!;
      const answer = inspectEInvoice(
        readFileSync(join(folder, value('file'))),
        value('kind') === 'pdf' ? 'pdf' : 'xml',
      );
      assert.equal(answer.syntax, 'zugferd1', value('file'));
      assert.equal(answer.customization.name, `ZUGFeRD 1.0 ${value('profile')}`, value('file'));
      assert.equal(answer.source.format, value('kind'));
      const read = fields.map((field) => answer.totals.document[field]);
      const expected = columns.map((column) => value(column) || null);
      assert.deepEqual(read, expected, value('file'));
    }
  });
});
