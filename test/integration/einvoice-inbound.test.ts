import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { eInvoiceXml } from '../../src/einvoice/eInvoiceDocuments.js';
import { inspectEInvoice } from '../../src/einvoice/inbound/inspect.js';
import { readInbound } from '../../src/einvoice/inbound/readInbound.js';
import { prepareEInvoice } from '../../src/einvoice/prepareEInvoice.js';
import {
  CORPUS_ABSENT_MESSAGE,
  CORPUS_PRESENT,
  inboundCorpus,
  sameAmount,
  SHARED_EINVOICE,
} from '../support/inboundCorpus.js';
import { postJson, startTestApp, type TestApp } from '../support/testApp.js';
import type { JsonAnswer } from '../support/json.js';

/**
 * POST /v1/e-invoice/inspect over HTTP, read on the compute pool: every corpus file's own totals,
 * the JSON invoice's round trip, and the hostile-input table (each a fast 4xx with a stable code).
 */
let app: TestApp;
before(async () => {
  app = await startTestApp({ COMPUTE_THREADS: '1' });
});
after(async () => {
  await app?.close();
});

const inspect = (body: Uint8Array | string, type = 'application/xml') =>
  fetch(`${app.url}/v1/e-invoice/inspect`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: body as BodyInit,
    signal: AbortSignal.timeout(30_000),
  });

const CII = (inner: string) =>
  `<?xml version="1.0"?><rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100">${inner}</rsm:CrossIndustryInvoice>`;

/** A minimal PDF with one embedded file stream (FlateDecode), as a hybrid PDF carries its XML. */
function pdfWith(file: string | undefined): Buffer {
  const body =
    file === undefined
      ? ''
      : `2 0 obj\n<< /Type /EmbeddedFile /Filter /FlateDecode /Length ${deflateSync(file).length} >>\nstream\n`;
  return Buffer.concat([
    Buffer.from(`%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n${body}`, 'latin1'),
    file === undefined ? Buffer.alloc(0) : deflateSync(file),
    Buffer.from(file === undefined ? '%%EOF\n' : '\nendstream\nendobj\n%%EOF\n', 'latin1'),
  ]);
}

describe('hostile and wrong input: a 4xx with a stable code, never a 5xx', () => {
  const deep = CII(`${'<a>'.repeat(200)}${'</a>'.repeat(200)}`);
  const cases: [string, () => Uint8Array | string, string, number, string][] = [
    [
      'XXE (external entity)',
      () => `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>`,
      'application/xml',
      400,
      'xml_doctype_refused',
    ],
    [
      'billion laughs',
      () =>
        `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><l>&c;</l>`,
      'application/xml',
      400,
      'xml_doctype_refused',
    ],
    ['a bare DOCTYPE', () => `<!DOCTYPE html><html/>`, 'text/xml', 400, 'xml_doctype_refused'],
    ['an undeclared entity', () => CII('&nbsp;'), 'application/xml', 400, 'xml_malformed'],
    ['not XML', () => 'hello, world', 'application/xml', 400, 'xml_malformed'],
    [
      'invalid UTF-8',
      () => Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0xfe, 0x3c, 0x2f, 0x61, 0x3e]),
      'application/xml',
      400,
      'xml_malformed',
    ],
    [
      'XML that is not an invoice',
      () => '<?xml version="1.0"?><Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>',
      'application/xml',
      400,
      'einvoice_unknown_root',
    ],
    ['an unknown root without namespace', () => '<Invoice/>', 'application/xml', 400, 'einvoice_unknown_root'],
    ['too deeply nested', () => deep, 'application/xml', 400, 'xml_too_deep'],
    ['oversized body', () => Buffer.alloc(8 * 1024 * 1024 + 1, 0x20), 'application/xml', 413, 'payload_too_large'],
    [
      'a form sent to the inbound route',
      () => 'a=b',
      'application/x-www-form-urlencoded',
      415,
      'unsupported_media_type',
    ],
    ['JSON without xml or pdf_base64', () => '{}', 'application/json', 400, 'validation_failed'],
    ['JSON that is not JSON', () => '{"xml": ', 'application/json', 400, 'invalid_json'],
    [
      'JSON with a __proto__ key',
      () => '{"__proto__": {"x": 1}, "xml": "<x/>"}',
      'application/json',
      400,
      'validation_failed',
    ],
    ['a PDF that is not one', () => 'not a pdf', 'application/pdf', 400, 'pdf_malformed'],
    ['a PDF without an e-invoice', () => pdfWith(undefined), 'application/pdf', 400, 'pdf_no_einvoice'],
    [
      'a PDF whose embedded file is not an invoice',
      () => pdfWith('<?xml version="1.0"?><x:xmpmeta xmlns:x="adobe:ns:meta/"/>'),
      'application/pdf',
      400,
      'pdf_no_einvoice',
    ],
    [
      'a PDF embedding an XXE invoice',
      () => pdfWith(`<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${CII('&e;')}`),
      'application/pdf',
      400,
      'xml_doctype_refused',
    ],
    [
      'an encrypted PDF',
      () => Buffer.from('%PDF-1.7\ntrailer << /Encrypt 5 0 R >>\n%%EOF', 'latin1'),
      'application/pdf',
      400,
      'pdf_encrypted',
    ],
  ];
  for (const [name, body, type, status, code] of cases) {
    test(`${name} → ${status} ${code}`, async () => {
      const response = await inspect(body(), type);
      const answer = (await response.json()) as { error: { code: string } };
      assert.equal(response.status, status, JSON.stringify(answer));
      assert.equal(answer.error.code, code);
    });
  }

  test('the locale query parameter applies to the JSON form too', async () => {
    const response = await fetch(`${app.url}/v1/e-invoice/inspect?locale=xx-XX`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ xml: CII('') }),
      signal: AbortSignal.timeout(30_000),
    });
    const answer = (await response.json()) as JsonAnswer;
    assert.equal(response.status, 400, JSON.stringify(answer));
    assert.equal(answer.error.code, 'validation_failed');
    assert.equal(answer.error.issues[0].path, 'locale');
  });

  test('render.pdf refuses the same way before any payment (a 400, not a 402)', async () => {
    const priced = await startTestApp({ COMPUTE_THREADS: '1' });
    try {
      const response = await fetch(`${priced.url}/v1/e-invoice/render.pdf`, {
        method: 'POST',
        headers: { 'content-type': 'application/xml' },
        body: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "x">]><x>&e;</x>',
        signal: AbortSignal.timeout(30_000),
      });
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'xml_doctype_refused');
    } finally {
      await priced.close();
    }
  });
});

describe('the corpus', { skip: CORPUS_PRESENT ? false : CORPUS_ABSENT_MESSAGE }, () => {
  test(
    'every corpus file and EN 16931 example: inspect answers its own BT-112 and BT-115',
    { timeout: 300_000 },
    async () => {
      const files = inboundCorpus();
      assert.ok(files.length >= 140, `only ${files.length} files`);
      const failures: string[] = [];
      for (const file of files) {
        const response = await inspect(
          readFileSync(file.path),
          file.format === 'pdf' ? 'application/pdf' : 'application/xml',
        );
        const answer = (await response.json()) as {
          totals: { document: { grand_total: string; due_payable: string } };
          invoice_number: string;
        };
        if (response.status !== 200) failures.push(`${file.name}: ${response.status} ${JSON.stringify(answer)}`);
        else if (
          !sameAmount(answer.totals.document.grand_total, file.grandTotal) ||
          !sameAmount(answer.totals.document.due_payable, file.duePayable)
        ) {
          failures.push(
            `${file.name}: ${answer.totals.document.grand_total}/${answer.totals.document.due_payable}, expected ${file.grandTotal}/${file.duePayable}`,
          );
        }
      }
      assert.deepEqual(failures, [], `${files.length - failures.length} of ${files.length} passed`);
    },
  );

  test('the answer: syntax, customization, profile, rules, other values', async () => {
    const response = await inspect(readFileSync(join(SHARED_EINVOICE, 'corpus/xrechnung/ubl/01.01a-INVOICE_ubl.xml')));
    const answer = (await response.json()) as JsonAnswer;
    assert.equal(answer.syntax, 'ubl');
    assert.equal(answer.document, 'Invoice');
    assert.deepEqual(answer.customization, {
      id: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
      name: 'XRechnung',
      known: true,
    });
    assert.equal(answer.profile, 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0');
    assert.equal(answer.invoice_number, '123456XX');
    assert.deepEqual(answer.totals.differences, []);
    assert.equal(answer.rules.valid, true);
    assert.equal(answer.source.format, 'xml');
  });

  test('national rules: the KoSIT test suite breaks none; a Peppol document without endpoints breaks what check-xml reports', () => {
    const national = /^(BR-DE|PEPPOL|DE-R|NL-R|BR-FR)/;
    const xrechnung = inboundCorpus().filter((file) => file.name.startsWith('xrechnung/'));
    assert.ok(xrechnung.length >= 60, `${xrechnung.length} XRechnung test-suite files`);
    for (const file of xrechnung) {
      const answer = inspectEInvoice(readFileSync(file.path), file.format);
      assert.equal(answer.reissue.profile, 'xrechnung', file.name);
      assert.ok(answer.rules.checked.includes('XRechnung 3.0 (this service’s checks)'), file.name);
      const found = answer.rules.issues.filter((issue) => national.test(issue.code));
      assert.deepEqual(found, [], `${file.name} is valid XRechnung (KoSIT's own test suite)`);
    }
    // check-xml peppol-ubl on this file: PEPPOL-EN16931-R010, R020, DE-R-001, DE-R-002, DE-R-015, R042.
    const rabatte = inspectEInvoice(readFileSync(join(SHARED_EINVOICE, 'corpus/mixed/peppol-rabatte.ubl.xml')), 'xml');
    assert.equal(rabatte.reissue.profile, 'peppol');
    const codes = new Set(rabatte.rules.issues.map((issue) => issue.code));
    for (const code of ['PEPPOL-EN16931-R010', 'PEPPOL-EN16931-R020', 'DE-R-001', 'DE-R-015'])
      assert.ok(codes.has(code), `${code} in ${[...codes].join(', ')}`);
  });

  test('a hybrid PDF is read through its embedded XML', async () => {
    const response = await inspect(
      readFileSync(join(SHARED_EINVOICE, 'corpus/mixed/fx-en16931-einfach.pdf')),
      'application/pdf',
    );
    const answer = (await response.json()) as JsonAnswer;
    assert.equal(response.status, 200);
    assert.equal(answer.syntax, 'cii');
    assert.equal(answer.source.format, 'pdf');
    assert.equal(answer.invoice_number, '471102');
  });

  test('a tampered total is reported with its rule, beside the total its lines give', async () => {
    const xml = readFileSync(join(SHARED_EINVOICE, 'corpus/xrechnung/cii/01.01a-INVOICE_uncefact.xml'), 'utf8').replace(
      /<ram:GrandTotalAmount>([^<]+)</,
      '<ram:GrandTotalAmount>999.99<',
    );
    const answer = (await (await inspect(xml)).json()) as JsonAnswer;
    const difference = answer.totals.differences.find((entry: { field: string }) => entry.field === 'grand_total');
    assert.deepEqual(difference, {
      field: 'grand_total',
      bt: 'BT-112',
      rule: 'BR-CO-15',
      document: '999.99',
      recomputed: '336.90',
      difference: '663.09',
    });
    assert.ok(answer.rules.issues.some((issue: { code: string }) => issue.code === 'BR-CO-15'));
    assert.equal(answer.rules.valid, false);
  });

  test('an unknown customization is read as plain EN 16931 with a note', async () => {
    const xml = readFileSync(join(SHARED_EINVOICE, 'corpus/xrechnung/ubl/01.01a-INVOICE_ubl.xml'), 'utf8').replace(
      /<cbc:CustomizationID>[^<]+</,
      '<cbc:CustomizationID>urn:example:unknown<',
    );
    const answer = (await (await inspect(xml)).json()) as JsonAnswer;
    assert.deepEqual(answer.customization, { id: 'urn:example:unknown', name: null, known: false });
    assert.match(answer.notes[0], /read as plain EN 16931/);
  });

  test('JSON { xml } and { pdf_base64 } (as MCP and the x402 bazaar describe the input) read the same', async () => {
    const xml = readFileSync(join(SHARED_EINVOICE, 'corpus/mixed/xrechnung30-einfach.cii.xml'), 'utf8');
    const asXml = (await (await inspect(xml)).json()) as JsonAnswer;
    const asJson = (await (await inspect(JSON.stringify({ xml }), 'application/json')).json()) as JsonAnswer;
    assert.deepEqual(asJson, asXml);
    const pdf = readFileSync(join(SHARED_EINVOICE, 'corpus/mixed/fx-en16931-einfach.pdf'));
    const fromPdf = (await (
      await inspect(JSON.stringify({ pdf_base64: pdf.toString('base64') }), 'application/json')
    ).json()) as JsonAnswer;
    assert.equal(fromPdf.source.format, 'pdf');
    assert.deepEqual(fromPdf.totals, asXml.totals);
  });

  test('a Peppol SBDH envelope is removed', async () => {
    const ubl = readFileSync(join(SHARED_EINVOICE, 'corpus/peppol/base-example.xml'), 'utf8').replace(
      /^<\?xml[^>]*>\s*/,
      '',
    );
    const wrapped = `<?xml version="1.0" encoding="UTF-8"?><StandardBusinessDocument xmlns="http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader"><StandardBusinessDocumentHeader><HeaderVersion>1.0</HeaderVersion></StandardBusinessDocumentHeader>${ubl}</StandardBusinessDocument>`;
    const answer = (await (await inspect(wrapped)).json()) as JsonAnswer;
    assert.equal(answer.envelope, 'sbdh');
    assert.equal(answer.totals.document.grand_total, '1656.25');
  });

  test('the JSON invoice re-issues with the same amounts (validate route, CII and UBL written and read back)', async () => {
    for (const name of [
      'corpus/mixed/xrechnung30-einfach.cii.xml',
      'corpus/xrechnung/ubl/01.03a-INVOICE_ubl.xml',
      'corpus/mixed/fx-en16931-einfach.pdf',
    ]) {
      const answer = (await (
        await inspect(
          readFileSync(join(SHARED_EINVOICE, name)),
          name.endsWith('.pdf') ? 'application/pdf' : 'application/xml',
        )
      ).json()) as JsonAnswer;
      assert.equal(answer.reissue.valid, true, `${name}: ${JSON.stringify(answer.reissue.issues)}`);
      const validated = await postJson(`${app.url}/v1/e-invoice/validate`, answer.invoice);
      const report = (await validated.json()) as JsonAnswer;
      assert.equal(validated.status, 200, JSON.stringify(report));
      assert.equal(report.valid, true, JSON.stringify(report));
      for (const syntax of ['cii', 'ubl'] as const) {
        const { invoice: again } = readInbound(eInvoiceXml(prepareEInvoice(answer.invoice), syntax), 'xml');
        assert.equal(
          Number(again.totals.grandTotal),
          Number(answer.totals.document.grand_total),
          `${name} ${syntax} BT-112`,
        );
        assert.equal(
          Number(again.totals.duePayable),
          Number(answer.totals.document.due_payable),
          `${name} ${syntax} BT-115`,
        );
        assert.equal(
          Number(again.totals.taxTotal),
          Number(answer.totals.document.tax_total),
          `${name} ${syntax} BT-110`,
        );
      }
    }
  });

  test('allowances on one VAT rate of several are taken into a line of that rate, so every amount is kept', async () => {
    // The JSON discount is shared among all rates: the allowances on 19 % and on 7 % go into a line of each.
    const answer = (await (
      await inspect(readFileSync(join(SHARED_EINVOICE, 'corpus/mixed/peppol-rabatte.ubl.xml')))
    ).json()) as JsonAnswer;
    assert.ok(
      answer.reissue.issues.every((issue: { code: string }) => issue.code !== 'reissue_amounts_differ'),
      JSON.stringify(answer.reissue),
    );
    assert.ok(
      answer.reissue.folded.some((note: string) => /allowance of 13\.73 .* on S 7 % was taken into line 2/.test(note)),
      JSON.stringify(answer.reissue.folded),
    );
    const report = (await (await postJson(`${app.url}/v1/e-invoice/validate`, answer.invoice)).json()) as JsonAnswer;
    assert.equal(Number(report.totals.total.decimal), Number(answer.totals.document.grand_total));
    assert.equal(Number(report.totals.tax.decimal), Number(answer.totals.document.tax_total));
    assert.equal(Number(report.totals.balance_due.decimal), Number(answer.totals.document.due_payable));
  });

  test('where the JSON model cannot keep the amounts, reissue says so', async () => {
    // A negative line in a VAT group without a positive line to take it (the JSON invoice has no negative lines).
    const answer = (await (
      await inspect(readFileSync(join(SHARED_EINVOICE, 'pint/aunz/examples/AU Invoice Energy Bill Example_1.xml')))
    ).json()) as JsonAnswer;
    assert.equal(answer.reissue.valid, false);
    assert.ok(
      answer.reissue.issues.some(
        (issue: { code: string; path: string }) =>
          issue.code === 'too_small' && issue.path === 'line_items[1].unit_price',
      ),
      JSON.stringify(answer.reissue),
    );
  });
});
