import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { InputRejected } from '../../../src/errors.js';
import { eInvoiceXml } from '../../../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_EINVOICE, EXAMPLE_PROFILE_REQUESTS } from '../../../src/einvoice/example.js';
import { compareTotals } from '../../../src/einvoice/inbound/inboundTotals.js';
import { inspectEInvoice } from '../../../src/einvoice/inbound/inspect.js';
import { INBOUND_PDF_BOUNDS } from '../../../src/einvoice/inbound/limits.js';
import { pdfEmbeddedFiles as scanPdf } from '../../../src/pdf/pdfEmbeddedFiles.js';
import { readInbound } from '../../../src/einvoice/inbound/readInbound.js';
import { xmlText } from '../../../src/xml/xmlText.js';
import { prepareEInvoice, prepareProfiledEInvoice } from '../../../src/einvoice/prepareEInvoice.js';
import { PROFILES } from '../../../src/einvoice/profiles.js';
import { formatAmount } from '../../../src/render/inbound/amountText.js';

/** The scanner and reader with the bounds the service reads inbound e-invoices within. */
const pdfEmbeddedFiles = (pdf: Uint8Array) => scanPdf(pdf, INBOUND_PDF_BOUNDS);

/**
 * The inbound readers on this service's own CII and UBL (so these run without ../shared; the
 * corpus tests in test/integration/einvoice-inbound*.test.ts cover the public corpora).
 */
const prepared = prepareEInvoice(EXAMPLE_EINVOICE);
const ownXml = (syntax: 'cii' | 'ubl') => eInvoiceXml(prepared, syntax);
const code = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof InputRejected, String(error));
    return error.code;
  }
  return 'accepted';
};

describe('reading our own e-invoices back (cii.ts and ubl.ts inverted)', () => {
  for (const syntax of ['cii', 'ubl'] as const) {
    test(syntax, () => {
      const { invoice } = readInbound(ownXml(syntax), 'xml');
      assert.equal(invoice.syntax, syntax);
      assert.equal(invoice.number, EXAMPLE_EINVOICE.invoice_number);
      assert.equal(invoice.issueDate, EXAMPLE_EINVOICE.issue_date);
      assert.equal(invoice.seller.name, EXAMPLE_EINVOICE.seller.name);
      assert.equal(invoice.seller.vatId, EXAMPLE_EINVOICE.seller.vat_id);
      assert.equal(invoice.buyer.name, EXAMPLE_EINVOICE.buyer.name);
      assert.equal(invoice.lines.length, EXAMPLE_EINVOICE.line_items.length);
      assert.equal(invoice.lines[0]!.name, EXAMPLE_EINVOICE.line_items[0]!.description);
      assert.equal(Number(invoice.totals.grandTotal), Number(prepared.totals.total) / 100);
      assert.deepEqual(invoice.otherValues, [], 'every element our writer writes is mapped');
      assert.deepEqual(compareTotals(invoice).differences, []);
    });
  }

  test('inspect: its JSON invoice is valid and prepares to the same totals', () => {
    const answer = inspectEInvoice(ownXml('ubl'), 'xml');
    assert.equal(answer.reissue.valid, true, JSON.stringify(answer.reissue));
    assert.equal(prepareEInvoice(answer.invoice).totals.total, prepared.totals.total);
    assert.equal(answer.rules.valid, true);
  });

  test('a document without lines (MINIMUM, BASIC WL) re-issues as one line per VAT group, same totals', () => {
    const xml = ownXml('cii')
      .toString('utf8')
      .replace(/<ram:IncludedSupplyChainTradeLineItem>[\s\S]*?<\/ram:IncludedSupplyChainTradeLineItem>\s*/g, '');
    const answer = inspectEInvoice(Buffer.from(xml), 'xml');
    assert.equal(answer.invoice.line_items.length, prepared.totals.groups.length);
    assert.ok(answer.reissue.folded.some((note) => /no lines/.test(note)));
    assert.equal(prepareEInvoice(answer.invoice).totals.total, prepared.totals.total);
    assert.deepEqual(answer.totals.differences, []);
  });

  test('an element the mapping does not read is an other value, with its path', () => {
    const xml = ownXml('cii')
      .toString('utf8')
      .replace(
        '<ram:TypeCode>380</ram:TypeCode>',
        '<ram:TypeCode>380</ram:TypeCode><ram:Name>WARENRECHNUNG</ram:Name>',
      );
    const { invoice } = readInbound(Buffer.from(xml), 'xml');
    assert.deepEqual(invoice.otherValues, [{ bt: null, path: 'ExchangedDocument/Name', value: 'WARENRECHNUNG' }]);
  });

  test('a changed total is a difference with its rule', () => {
    const xml = ownXml('ubl')
      .toString('utf8')
      .replace(/<cbc:PayableAmount currencyID="EUR">[^<]+</, '<cbc:PayableAmount currencyID="EUR">1.00<');
    const { differences } = compareTotals(readInbound(Buffer.from(xml), 'xml').invoice);
    assert.deepEqual(
      differences.map((difference) => [difference.field, difference.rule, difference.document]),
      [['due_payable', 'BR-CO-16', '1.00']],
    );
  });
});

describe('hostile XML is refused unread', () => {
  test('DOCTYPE, entities, depth, element count, encodings', () => {
    assert.equal(
      code(() => readInbound(Buffer.from('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>'), 'xml')),
      'xml_doctype_refused',
    );
    assert.equal(
      code(() => readInbound(Buffer.from(`${'<a>'.repeat(49)}${'</a>'.repeat(49)}`), 'xml')),
      'xml_too_deep',
    );
    assert.equal(
      code(() => readInbound(Buffer.from(`<a>${'<b/>'.repeat(200_001)}</a>`), 'xml')),
      'einvoice_too_large',
    );
    assert.equal(
      code(() => readInbound(Buffer.from('<a>&bogus;</a>'), 'xml')),
      'xml_malformed',
    );
    assert.equal(
      code(() => readInbound(Buffer.from('<?xml version="1.0" encoding="EBCDIC"?><a/>'), 'xml')),
      'xml_encoding_unsupported',
    );
    assert.equal(
      code(() => readInbound(Buffer.from('<a xmlns="urn:x"/>'), 'xml')),
      'einvoice_unknown_root',
    );
  });

  test('UTF-16 with BOM and a declared ISO-8859-1 are read', () => {
    assert.equal(xmlText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<a>ä</a>', 'utf16le')])), '<a>ä</a>');
    assert.equal(
      xmlText(Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><a>\xe4</a>', 'latin1')),
      '<?xml version="1.0" encoding="ISO-8859-1"?><a>ä</a>',
    );
  });
});

describe('PDF embedded files', () => {
  const pdf = (dict: string, data: Buffer, extra = '') =>
    Buffer.concat([
      Buffer.from(`%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n${extra}2 0 obj\n${dict}\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream\nendobj\n%%EOF\n', 'latin1'),
    ]);

  test('FlateDecode with a direct or an indirect /Length, nested dictionaries and strings with brackets', () => {
    const xml = ownXml('cii');
    const packed = deflateSync(xml);
    assert.ok(
      pdfEmbeddedFiles(
        pdf(
          `<< /Type /EmbeddedFile /Filter /FlateDecode /Length ${packed.length} /Params << /Size ${xml.length} /ModDate (D:2026\\(x>>) >> >>`,
          packed,
        ),
      )[0]!.equals(xml),
    );
    assert.ok(
      pdfEmbeddedFiles(
        pdf('<</Type/EmbeddedFile/Filter/FlateDecode/Length 9 0 R>>', packed, `9 0 obj\n${packed.length}\nendobj\n`),
      )[0]!.equals(xml),
    );
    const { invoice, source } = readInbound(pdf(`<< /Type /EmbeddedFile /Length ${xml.length} >>`, xml), 'pdf');
    assert.equal(invoice.number, EXAMPLE_EINVOICE.invoice_number);
    assert.equal(source.embeddedFiles, 1);
  });

  test('a stream that inflates beyond the limit is not read', () => {
    const bomb = deflateSync(Buffer.alloc(5 * 1024 * 1024, 0x20));
    assert.deepEqual(
      pdfEmbeddedFiles(pdf(`<< /Type /EmbeddedFile /Filter /FlateDecode /Length ${bomb.length} >>`, bomb)),
      [],
    );
    assert.equal(
      code(() =>
        readInbound(pdf(`<< /Type /EmbeddedFile /Filter /FlateDecode /Length ${bomb.length} >>`, bomb), 'pdf'),
      ),
      'pdf_no_einvoice',
    );
  });
});

test('amounts print as the document wrote them, grouped and in the locale digits', () => {
  assert.equal(formatAmount('1234.5', 'de-DE'), '1.234,50');
  assert.equal(formatAmount('-0.125', 'en-GB'), '−0.125');
  assert.equal(formatAmount('12345678901234567.89', 'en-US'), '12,345,678,901,234,567.89');
  assert.equal(formatAmount('10.5', 'ar-EG'), '١٠٫٥٠');
});

describe('a national document is checked and re-issued under its own profile', () => {
  const profiled = (profile: 'xrechnung' | 'peppol' | 'fr') =>
    prepareProfiledEInvoice(EXAMPLE_PROFILE_REQUESTS[profile]);
  for (const [profile, syntax] of [
    ['xrechnung', 'cii'],
    ['xrechnung', 'ubl'],
    ['peppol', 'ubl'],
    ['fr', 'cii'],
    ['fr', 'ubl'],
  ] as const) {
    test(`${profile} ${syntax}: detected, its rules checked, its JSON re-issues under it with the same totals`, () => {
      const source = profiled(profile);
      const answer = inspectEInvoice(eInvoiceXml(source.prepared, syntax, profile), 'xml');
      assert.equal(answer.reissue.profile, profile);
      assert.ok(
        answer.rules.checked.some((name) => name.startsWith(PROFILES[profile].title)),
        answer.rules.checked.join(),
      );
      assert.deepEqual(answer.rules.issues, []);
      assert.equal(answer.reissue.valid, true, JSON.stringify(answer.reissue));
      const again = prepareProfiledEInvoice({ ...answer.invoice, profile: answer.reissue.profile });
      assert.equal(again.prepared.totals.total, source.prepared.totals.total);
      assert.deepEqual(
        again.prepared.invoice.seller.electronic_address,
        source.prepared.invoice.seller.electronic_address,
      );
      if (profile === 'fr')
        assert.deepEqual(Object.keys(again.prepared.invoice.legal_notes ?? {}).sort(), [
          'early_payment_discount',
          'late_payment_penalties',
          'recovery_fee',
        ]);
    });
  }

  test('what the document lacks is reported with the national rule id; what only the conversion dropped is not', () => {
    const xml = eInvoiceXml(profiled('xrechnung').prepared, 'cii', 'xrechnung').toString('utf8');
    const noPhone = xml.replace(
      /<ram:TelephoneUniversalCommunication>[\s\S]*?<\/ram:TelephoneUniversalCommunication>/,
      '',
    );
    const answer = inspectEInvoice(Buffer.from(noPhone), 'xml');
    assert.deepEqual(
      answer.rules.issues.map((issue) => [issue.code, issue.path]),
      [['BR-DE-6', 'seller.phone']],
    );
    // An electronic address in a scheme this service does not issue stays the document's (shown), not a broken rule.
    const odd = xml.replace(
      /(<ram:URIUniversalCommunication>\s*<ram:URIID schemeID=")[^"]+(">)[^<]+/,
      '$1XX$2odd-address',
    );
    const oddAnswer = inspectEInvoice(Buffer.from(odd), 'xml');
    assert.ok(
      !oddAnswer.rules.issues.some((issue) => issue.path.endsWith('electronic_address')),
      JSON.stringify(oddAnswer.rules.issues),
    );
    assert.equal(oddAnswer.reissue.valid, false, 're-issuing would be refused: the JSON invoice has no address there');
  });

  test("a Peppol seller in a country whose Peppol rules this service does not check: a note, not the document's broken rule", () => {
    const xml = eInvoiceXml(profiled('peppol').prepared, 'ubl', 'peppol').toString('utf8');
    // The seller's country is the first IdentificationCode (AccountingSupplierParty comes first).
    const swedish = xml.replace(/(<cbc:IdentificationCode>)[A-Z]{2}(<)/, '$1SE$2');
    assert.notEqual(swedish, xml);
    const answer = inspectEInvoice(Buffer.from(swedish), 'xml');
    assert.ok(!answer.rules.issues.some((issue) => issue.code === 'PEPPOL-national'), JSON.stringify(answer.rules));
    assert.ok(
      answer.notes.includes('Peppol: the seller is in SE, whose national Peppol rules this service does not check.'),
      JSON.stringify(answer.notes),
    );
  });

  test('a plain EN 16931 document is checked against EN 16931 only', () => {
    const answer = inspectEInvoice(ownXml('cii'), 'xml');
    assert.equal(answer.reissue.profile, 'en16931');
    assert.deepEqual(answer.rules.checked, ['EN 16931 (this service’s checks)']);
  });
});
