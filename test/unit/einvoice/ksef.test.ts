import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { test } from 'node:test';
import { checkKsefNumber, crc8, withKsefChecksum } from '../../../src/einvoice/formats/ksef/ksefNumber.js';
import { KSEF_EXAMPLE } from '../../../src/einvoice/formats/ksef/ksefExample.js';
import { ksef as KSEF_FORMAT } from '../../../src/einvoice/formats/ksef/format.js';
import { writeOwnSyntax } from '../../../src/einvoice/ownSyntax.js';
import { isValidNip } from '../../../src/einvoice/formats/ksef/nip.js';
import { checkEInvoice } from '../../../src/einvoice/prepareEInvoice.js';
import { prepareBatch } from '../../../src/batch/batchRequest.js';
import { produceBatch } from '../../../src/batch/produceBatch.js';
import { InputRejected } from '../../../src/errors.js';
import { kodI } from '../../../src/einvoice/formats/ksef/kodI.js';
import { readForRender } from '../../../src/einvoice/inbound/readInboundRequest.js';
import { inboundOperations } from '../../../src/operations/inboundOperations.js';
import { eInvoiceXml } from '../../../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_EINVOICE } from '../../../src/einvoice/example.js';
import { prepareEInvoice } from '../../../src/einvoice/prepareEInvoice.js';
import { KSEF_EXAMPLES } from '../../fixtures/ksefExamples.js';
import type { JsonAnswer } from '../../support/json.js';

/** FA(3)'s identifiers and the checks made before payment, each naming its field. */

test('NIP: the weighted checksum modulo 11, and FA(3)’s shape', () => {
  for (const nip of ['5250000009', '7770000005', '1111111111', '5261040828']) assert.ok(isValidNip(nip), nip);
  for (const nip of ['5250000008', '9999999990', '0123456789', '1001234567', '525000000', '52500000090', '526000123X'])
    assert.equal(isValidNip(nip), false, nip);
});

test('KSeF number: the ministry’s example passes, its checksum is CRC-8 (poly 0x07, init 0)', () => {
  assert.equal(crc8('5265877635-20250826-0100001AF629'), 0xaf);
  assert.deepEqual(checkKsefNumber('5265877635-20250826-0100001AF629-AF'), {
    valid: true,
    nip: '5265877635',
    canonical: '5265877635-20250826-0100001AF629-AF',
  });
  // FA(3)'s TNumerKSeF allows a dash inside the technical part; it is not checksummed.
  assert.equal(checkKsefNumber('5265877635-20250826-010000-1AF629-AF').valid, true);
  assert.deepEqual(checkKsefNumber('5265877635-20250826-0100001AF629-AE'), { valid: false, reason: 'checksum' });
  for (const bad of ['5265877635-20250826-0100001af629-AF', '5265877635-20250230-0100001AF629-AF', 'x', ''])
    assert.deepEqual(checkKsefNumber(bad), { valid: false, reason: 'malformed' }, bad);
});

const body = (change: (request: JsonAnswer) => void) => {
  const request = structuredClone(KSEF_EXAMPLE) as JsonAnswer;
  change(request);
  return request;
};
const issuesOf = (request: unknown) => checkEInvoice(request).issues.map((issue) => [issue.code, issue.path]);

test('every example passes the checks; validate with profile ksef answers no issue', () => {
  for (const [name, example] of Object.entries(KSEF_EXAMPLES)) assert.deepEqual(issuesOf(example), [], name);
});

test('bad input: each rule names its field, all at once', () => {
  const cases: [string, (request: JsonAnswer) => void, [string, string][]][] = [
    [
      'a NIP that fails its checksum',
      (r) => (r.seller.vat_id = 'PL5250000008'),
      [['ksef_nip_checksum', 'seller.vat_id']],
    ],
    [
      'a buyer NIP that fails its checksum',
      (r) => (r.buyer.vat_id = 'PL7770000004'),
      [['ksef_nip_checksum', 'buyer.vat_id']],
    ],
    ['a seller without a Polish NIP', (r) => (r.seller.vat_id = 'DE123456789'), [['ksef_seller_nip', 'seller.vat_id']]],
    [
      'a rate FA(3) does not know',
      (r) => (r.line_items[0].tax_rate = 19),
      [['ksef_rate_code', 'line_items[0].tax_rate']],
    ],
    [
      'an exemption without its legal basis',
      (r) => delete r.ksef.exemption,
      [['ksef_exemption_basis', 'ksef.exemption']],
    ],
    [
      'a correction without the corrected invoice',
      (r) => (r.ksef.kind = 'KOR'),
      [['ksef_correction_reference', 'preceding_invoice']],
    ],
    [
      'a correction naming a KSeF number with a bad checksum',
      (r) => {
        r.ksef.kind = 'KOR';
        r.preceding_invoice = { number: 'FV/1', issue_date: '2026-02-01' };
        r.ksef.corrected_ksef_number = '5265877635-20250826-0100001AF629-AE';
      },
      [['ksef_number_checksum', 'ksef.corrected_ksef_number']],
    ],
    [
      'a foreign-currency invoice without the rate',
      (r) => (r.currency = 'EUR'),
      [['ksef_exchange_rate', 'ksef.exchange_rate']],
    ],
    [
      // No Polish VAT to state in PLN (P_14_xW): the ministry's examples 22 and 23 carry no rate.
      'a foreign-currency export at 0 % without the rate',
      (r) => {
        r.currency = 'USD';
        for (const line of r.line_items) Object.assign(line, { tax_rate: 0, tax_category: 'G' });
        delete r.ksef.exemption; // the body's exempt line is gone
      },
      [],
    ],
    ['an advance invoice without the advance', (r) => (r.ksef.kind = 'ZAL'), [['ksef_advance', 'ksef.advance']]],
    ['an invoice-level discount', (r) => (r.discount = 10), [['ksef_discount', 'discount']]],
    ['a rounding of the amount due', (r) => (r.rounding_amount = 0.01), [['ksef_rounding', 'rounding_amount']]],
    ['an amount paid without its date', (r) => (r.amount_paid = 10), [['ksef_paid_on', 'ksef.paid_on']]],
    ['a credit note that is no correction', (r) => (r.document_type = 'credit_note'), [['ksef_kind', 'document_type']]],
    [
      'several problems',
      (r) => {
        r.seller.vat_id = 'PL5250000008';
        r.line_items[1].tax_rate = 6;
        r.currency = 'USD';
      },
      [
        ['ksef_nip_checksum', 'seller.vat_id'],
        ['ksef_rate_code', 'line_items[1].tax_rate'],
        ['ksef_exchange_rate', 'ksef.exchange_rate'],
      ],
    ],
  ];
  for (const [name, change, expected] of cases) assert.deepEqual(issuesOf(body(change)), expected, name);
});

test('a malformed ksef object is a 400 with its paths, beside the invoice’s own', () => {
  const request = body((r) => {
    r.ksef.kind = 'XYZ';
    r.ksef.rate_codes = [{ line: 0, code: '19' }];
    r.line_items[0].quantity = -1;
  });
  assert.throws(
    () => checkEInvoice(request),
    (error: unknown) => {
      assert.ok(error instanceof InputRejected);
      assert.deepEqual(
        error.issues?.map((issue) => issue.path),
        ['ksef.kind', 'ksef.rate_codes[0].code', 'line_items[0].quantity'],
      );
      return true;
    },
  );
});

test('the paid route refuses every issue before writing, and names a wrong profile', () => {
  assert.throws(
    () =>
      writeOwnSyntax(
        KSEF_FORMAT,
        body((r) => (r.profile = 'fr')),
      ),
    (error: unknown) => error instanceof InputRejected && error.issues?.[0]?.path === 'profile',
  );
  assert.throws(
    () =>
      writeOwnSyntax(
        KSEF_FORMAT,
        body((r) => (r.seller.vat_id = 'PL5250000008')),
      ),
    (error: unknown) => error instanceof InputRejected && error.code === 'einvoice_rules_failed',
  );
  const { file: xml, fileName } = writeOwnSyntax(KSEF_FORMAT, KSEF_EXAMPLE, new Date('2026-03-02T10:00:00Z')).written;
  assert.equal(fileName, 'invoice-FV_2026_03_0042-ksef-fa3.xml');
  const text = Buffer.from(xml).toString('utf8');
  assert.match(text, /<KodFormularza kodSystemowy="FA \(3\)" wersjaSchemy="1-0E">FA<\/KodFormularza>/);
  assert.match(text, /<P_18A>1<\/P_18A>/);
  assert.match(text, /<P_19A>art\. 43 ust\. 1 pkt 29 lit\. b ustawy o VAT<\/P_19A>/);
});

test('a profile ksef request sent to another format is refused by its format', () => {
  const { issues } = checkEInvoice(KSEF_EXAMPLE, 'cii');
  assert.deepEqual(
    issues.map((issue) => [issue.code, issue.path]),
    [['profile_format', 'profile']],
  );
});

test('the batch route writes one FA(3) per item (format ksef), checked as the single route checks it', async () => {
  const second = body((r) => (r.invoice_number = 'FV/2026/03/0043'));
  const batch = prepareBatch({ format: 'ksef', invoices: [KSEF_EXAMPLE, second] });
  assert.deepEqual(batch.profiles, ['ksef', 'ksef']);
  const zip = (await produceBatch(undefined, batch)).body;
  for (const name of ['invoice-FV_2026_03_0042-ksef-fa3.xml', 'invoice-FV_2026_03_0043-ksef-fa3.xml', 'manifest.json'])
    assert.ok(zip.includes(Buffer.from(name)), name);
  assert.throws(
    () => prepareBatch({ format: 'ksef', invoices: [KSEF_EXAMPLE, body((r) => (r.seller.vat_id = 'PL5250000008'))] }),
    (error: unknown) => error instanceof InputRejected && error.issues?.[0]?.path === 'invoices[1].seller.vat_id',
  );
});

test('KOD I: the hash of the bytes as given, on the host of the environment', () => {
  const bytes = Buffer.from('<Faktura/>\n');
  const hash = createHash('sha256').update(bytes).digest('base64url');
  const code = kodI(bytes, { sellerNip: '5250000009', issueDate: '2026-03-02' }, undefined, 'production');
  assert.deepEqual(code, {
    link: `https://qr.ksef.mf.gov.pl/invoice/5250000009/02-03-2026/${hash}`,
    caption: 'OFFLINE',
    name: { text: 'KOD I · weryfikacja w KSeF', lang: 'pl' },
  });
  assert.equal(
    kodI(bytes, { sellerNip: '5250000009', issueDate: '2026-03-02' }, undefined, 'test').link,
    `https://qr-test.ksef.mf.gov.pl/invoice/5250000009/02-03-2026/${hash}`,
  );
  // One byte more (a re-serialisation would add or drop whitespace) is another code.
  assert.notEqual(
    kodI(
      Buffer.concat([bytes, Buffer.from(' ')]),
      { sellerNip: '5250000009', issueDate: '2026-03-02' },
      undefined,
      'production',
    ).link,
    code.link,
  );
});

test('KOD I through the registry hook: render.pdf reads an FA(3) with its code, other syntaxes without', () => {
  const xml = writeOwnSyntax(KSEF_FORMAT, KSEF_EXAMPLE, new Date('2026-03-02T10:00:00Z')).written.file;
  const hash = createHash('sha256').update(xml).digest('base64url');
  const read = (codeArguments: Record<string, unknown>) =>
    readForRender({ bytes: xml, format: 'xml', locale: undefined, codeArguments });
  assert.deepEqual(read({}).verificationCode, {
    link: `https://qr.ksef.mf.gov.pl/invoice/5250000009/02-03-2026/${hash}`,
    caption: 'OFFLINE',
    name: { text: 'KOD I · weryfikacja w KSeF', lang: 'pl' },
  });
  const number = withKsefChecksum('5250000009-20260302-0100001AF629');
  assert.deepEqual(read({ ksef_environment: 'demo', ksef_number: number }).verificationCode, {
    link: `https://qr-demo.ksef.mf.gov.pl/invoice/5250000009/02-03-2026/${hash}`,
    caption: number,
    name: { text: 'KOD I · weryfikacja w KSeF', lang: 'pl' },
  });
  assert.throws(
    () => read({ ksef_number: withKsefChecksum('7770000005-20260302-0100001AF629') }),
    (error: unknown) => error instanceof InputRejected && error.issues?.[0]?.code === 'ksef_number_seller',
  );
  // The server's configured environment applies when the request names none (inboundOperations' defaults).
  const render = inboundOperations(undefined, undefined, { ksef_environment: 'test' }).find((operation) =>
    operation.path.endsWith('render.pdf'),
  )!;
  const parsed = render.request!.parse(
    { xml: Buffer.from(xml).toString('utf8') },
    { today: '2026-03-02' },
  ) as ReturnType<typeof readForRender>;
  assert.ok(parsed.verificationCode?.link.startsWith('https://qr-test.ksef.mf.gov.pl/invoice/5250000009/'));
  const cii = eInvoiceXml(prepareEInvoice(EXAMPLE_EINVOICE), 'cii');
  assert.equal(
    readForRender({ bytes: cii, format: 'xml', locale: undefined, codeArguments: {} }).verificationCode,
    undefined,
  );
});

/** A minimal PDF with one embedded file (the scanner reads /Type /EmbeddedFile streams), deflated or not. */
const pdfWith = (file: Uint8Array, deflate: boolean) => {
  const stream = deflate ? deflateSync(file) : Buffer.from(file);
  const filter = deflate ? ' /Filter /FlateDecode' : '';
  return Buffer.concat([
    Buffer.from(`%PDF-1.7\n1 0 obj\n<< /Type /EmbeddedFile${filter} /Length ${stream.length} >>\nstream\n`, 'latin1'),
    stream,
    Buffer.from('\nendstream\nendobj\n%%EOF\n', 'latin1'),
  ]);
};
const sbdh = (inner: string) =>
  Buffer.from(
    `<?xml version="1.0"?>\n<StandardBusinessDocument xmlns="http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader"><StandardBusinessDocumentHeader><HeaderVersion>1.0</HeaderVersion></StandardBusinessDocumentHeader>${inner}</StandardBusinessDocument>`,
  );

test('an FA(3) attached to a PDF is read as sent alone, its KOD I over the attached XML, never the PDF', () => {
  const xml = writeOwnSyntax(KSEF_FORMAT, KSEF_EXAMPLE, new Date('2026-03-02T10:00:00Z')).written.file;
  const alone = readForRender({ bytes: xml, format: 'xml', locale: undefined, codeArguments: {} });
  const hash = createHash('sha256').update(xml).digest('base64url');
  assert.equal(alone.verificationCode?.link, `https://qr.ksef.mf.gov.pl/invoice/5250000009/02-03-2026/${hash}`);
  for (const deflate of [false, true]) {
    const pdf = pdfWith(xml, deflate);
    const read = readForRender({ bytes: pdf, format: 'pdf', locale: undefined, codeArguments: {} });
    assert.equal(read.invoice.syntax, 'fa3');
    assert.deepEqual(read.invoice, alone.invoice);
    assert.deepEqual(read.verificationCode, alone.verificationCode, `deflated: ${deflate}`);
    // The PDF travelling in a Peppol envelope: the same attachment, the same code.
    const enveloped = sbdh(
      `<BinaryContent xmlns="http://peppol.eu/xsd/ticc/envelope/1.0" mimeType="application/pdf" encoding="base64">${pdf.toString('base64')}</BinaryContent>`,
    );
    assert.deepEqual(
      readForRender({ bytes: enveloped, format: 'xml', locale: undefined, codeArguments: {} }).verificationCode,
      alone.verificationCode,
    );
  }
  // A KSeF number naming another seller is refused for the attached FA(3) as for the XML.
  assert.throws(
    () =>
      readForRender({
        bytes: pdfWith(xml, false),
        format: 'pdf',
        locale: undefined,
        codeArguments: { ksef_number: withKsefChecksum('7770000005-20260302-0100001AF629') },
      }),
    (error: unknown) => error instanceof InputRejected && error.issues?.[0]?.code === 'ksef_number_seller',
  );
  // Written inline in a Peppol envelope, the FA(3) is an element with no file of its own: read, no code.
  const inline = sbdh(
    Buffer.from(xml)
      .toString('utf8')
      .replace(/^<\?xml[^>]*\?>/, ''),
  );
  const read = readForRender({ bytes: inline, format: 'xml', locale: undefined, codeArguments: {} });
  assert.equal(read.invoice.number, alone.invoice.number);
  assert.equal(read.verificationCode, undefined);
});
