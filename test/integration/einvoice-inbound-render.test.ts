import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readInbound } from '../../src/einvoice/inbound/readInbound.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { formatAmount } from '../../src/render/inbound/amountText.js';
import { normalizeText, pdfPages } from '../fixtures/pdfTools.js';
import { CORPUS_ABSENT_MESSAGE, CORPUS_PRESENT, inboundCorpus, SHARED_EINVOICE } from '../support/inboundCorpus.js';
import { startTestApp, type TestApp } from '../support/testApp.js';
import type { JsonAnswer } from '../support/json.js';

/**
 * POST /v1/e-invoice/render.pdf with the real renderer (price 0 here; the paid path is the same
 * gate as every paid route): every corpus file prints a PDF whose text holds its number, both
 * parties and the amount due, in batches of two so that the shared machine stays usable.
 */
let renderer: Renderer;
let app: TestApp;
before(
  async () => {
    renderer = await createRenderer({ poolSize: 2 });
    app = await startTestApp({ PRICES: 'v1_e_invoice_render_pdf=0', COMPUTE_THREADS: '1' }, { renderer });
  },
  { timeout: 60_000 },
);
after(async () => {
  await app?.close();
  await renderer?.close();
});

const render = async (body: Uint8Array, type: string, locale?: string) => {
  const response = await fetch(`${app.url}/v1/e-invoice/render.pdf${locale ? `?locale=${locale}` : ''}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: body as BodyInit,
    signal: AbortSignal.timeout(60_000),
  });
  return { response, pdf: Buffer.from(await response.arrayBuffer()) };
};
const squash = (text: string) => normalizeText(text).replace(/\s+/g, '');

describe('render.pdf', { skip: CORPUS_PRESENT ? false : CORPUS_ABSENT_MESSAGE }, () => {
  test('every corpus file: a PDF with its number, parties and amount due', { timeout: 900_000 }, async () => {
    const files = inboundCorpus();
    const failures: string[] = [];
    for (let at = 0; at < files.length; at += 2) {
      await Promise.all(
        files.slice(at, at + 2).map(async (file) => {
          const bytes = readFileSync(file.path);
          const type = file.format === 'pdf' ? 'application/pdf' : 'application/xml';
          const { response, pdf } = await render(bytes, type);
          if (response.status !== 200)
            return failures.push(`${file.name}: ${response.status} ${pdf.toString('utf8').slice(0, 300)}`);
          const { invoice } = readInbound(bytes, file.format);
          const text = squash(pdfPages(pdf, 'raw').join('\n'));
          const wanted = [
            invoice.number,
            invoice.seller.name,
            invoice.buyer.name,
            formatAmount(file.duePayable, 'en-GB'),
          ];
          const missing = wanted.filter((value) => value !== '' && !text.includes(squash(value)));
          if (missing.length > 0) failures.push(`${file.name}: missing ${JSON.stringify(missing)}`);
          return undefined;
        }),
      );
    }
    assert.deepEqual(failures, [], `${files.length - failures.length} of ${files.length} rendered with their values`);
  });

  test(
    'marked as a visualisation, in the language asked for, right to left included',
    { timeout: 120_000 },
    async () => {
      const bytes = readFileSync(join(SHARED_EINVOICE, 'corpus/xrechnung/cii/01.01a-INVOICE_uncefact.xml'));
      const german = pdfPages((await render(bytes, 'application/xml', 'de-DE')).pdf).join('\n');
      assert.match(normalizeText(german), /Die elektronische Rechnung ist das XML/);
      const arabic = await render(bytes, 'application/xml', 'ar-EG');
      assert.equal(arabic.response.status, 200);
      assert.match(normalizeText(pdfPages(arabic.pdf).join('\n')), /XML/);
    },
  );

  test('where the totals disagree with the lines, the PDF shows both', { timeout: 120_000 }, async () => {
    const xml = readFileSync(join(SHARED_EINVOICE, 'corpus/xrechnung/cii/01.01a-INVOICE_uncefact.xml'), 'utf8').replace(
      /<ram:GrandTotalAmount>([^<]+)</,
      '<ram:GrandTotalAmount>999.99<',
    );
    const { pdf } = await render(Buffer.from(xml), 'application/xml');
    const text = normalizeText(pdfPages(pdf).join('\n'));
    assert.match(text, /they differ from what its lines give/);
    assert.match(text, /999\.99/);
    assert.match(text, /336\.90/);
  });

  test(
    'over MCP: the XML or a base64 PDF in, the PDF as an embedded resource out; inspect answers its JSON',
    { timeout: 120_000 },
    async () => {
      const client = new Client({ name: 'inbound-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`)));
      try {
        const { tools } = await client.listTools();
        const render = tools.find((tool) => tool.name === 'v1_e_invoice_render_pdf');
        // ksef_number and ksef_environment: FA(3)'s KOD I arguments (src/einvoice/formats/ksef/kodI.ts, the registry's verificationCode hook);
        // document: which document of a multi-document file (FatturaPA's bodies) is printed.
        assert.deepEqual(Object.keys(render?.inputSchema.properties ?? {}).sort(), [
          'document',
          'ksef_environment',
          'ksef_number',
          'locale',
          'p7m_base64',
          'pdf_base64',
          'xml',
        ]);
        const pdfBytes = readFileSync(join(SHARED_EINVOICE, 'corpus/mixed/fx-en16931-einfach.pdf'));
        const result = (await client.callTool({
          name: 'v1_e_invoice_render_pdf',
          arguments: { pdf_base64: pdfBytes.toString('base64'), locale: 'fr-FR' },
        })) as { isError?: boolean; content: { type: string; resource?: { mimeType: string; blob?: string } }[] };
        assert.notEqual(result.isError, true, JSON.stringify(result).slice(0, 500));
        const resource = result.content.find((item) => item.type === 'resource')?.resource;
        assert.equal(resource?.mimeType, 'application/pdf');
        const text = normalizeText(pdfPages(Buffer.from(resource!.blob!, 'base64')).join('\n'));
        assert.match(text, /la facture électronique est le XML/);
        assert.match(text, /471102/);
        const xml = readFileSync(join(SHARED_EINVOICE, 'corpus/peppol/base-example.xml'), 'utf8');
        const inspected = (await client.callTool({ name: 'v1_e_invoice_inspect', arguments: { xml } })) as {
          isError?: boolean;
          structuredContent?: Record<string, JsonAnswer>;
        };
        assert.notEqual(inspected.isError, true);
        assert.equal(inspected.structuredContent?.totals.document.due_payable, '1656.25');
        const refused = (await client.callTool({
          name: 'v1_e_invoice_inspect',
          arguments: { xml: '<!DOCTYPE x [<!ENTITY e "e">]><x>&e;</x>' },
        })) as { isError?: boolean; structuredContent?: Record<string, JsonAnswer> };
        assert.equal(refused.isError, true);
        assert.equal(refused.structuredContent?.error.code, 'xml_doctype_refused');
      } finally {
        await client.close();
      }
    },
  );

  test(
    'every value is shown: what the layout has no place for is listed under further details',
    { timeout: 120_000 },
    async () => {
      const bytes = readFileSync(join(SHARED_EINVOICE, 'corpus/mixed/fx-extended-cashdiscount.cii.xml'));
      const { invoice } = readInbound(bytes, 'xml');
      assert.ok(invoice.otherValues.length > 20);
      const text = squash(pdfPages((await render(bytes, 'application/xml')).pdf, 'raw').join('\n'));
      assert.ok(text.toLowerCase().includes(squash('further details')));
      // Every value is printed; a tax scheme (VAT on every group) only repeats the page and is not.
      const missing = invoice.otherValues.filter(
        (value) => !/TaxScheme\/ID$/.test(value.path) && !text.includes(squash(value.value)),
      );
      assert.deepEqual(missing, []);
    },
  );

  test('attachments are listed, never opened; embedded URLs cause no request', { timeout: 120_000 }, async () => {
    let requests = 0;
    const server = createServer((_request, response) => {
      requests++;
      response.end('x');
    }).listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/logo.png`;
    try {
      const xml = readFileSync(join(SHARED_EINVOICE, 'corpus/xrechnung/ubl/01.15a-INVOICE_ubl.xml'), 'utf8').replace(
        '<cac:ProjectReference>',
        `<cac:AdditionalDocumentReference><cbc:ID>remote</cbc:ID><cac:Attachment><cac:ExternalReference><cbc:URI>${url}</cbc:URI></cac:ExternalReference></cac:Attachment></cac:AdditionalDocumentReference><cac:ProjectReference>`,
      );
      const { response, pdf } = await render(Buffer.from(xml), 'application/xml');
      assert.equal(response.status, 200);
      const text = normalizeText(pdfPages(pdf, 'raw').join('\n'));
      assert.match(text, /01_15_Anhang_01\.pdf/);
      assert.match(text, /Aufschlüsselung der einzelnen Leistungspositionen/);
      assert.ok(text.includes(url), 'the URL is printed as text');
      // The embedded PDF's base64 is not in the page: only its size.
      assert.doesNotMatch(text, /JVBERi0xLjUNCiW1/);
      assert.equal(requests, 0);
    } finally {
      server.close();
    }
  });

  test('an unknown locale is a 400 before anything is read', async () => {
    const { response } = await render(Buffer.from('<x/>'), 'application/xml', 'xx-XX');
    assert.equal(response.status, 400);
  });
});

describe('render.pdf of ZUGFeRD 1.0', () => {
  test(
    'a document of our own making prints with its syntax, number, parties and amount due',
    { timeout: 120_000 },
    async () => {
      const bytes = readFileSync(new URL('../fixtures/zugferd1/comfort-two-rates.xml', import.meta.url));
      const { response, pdf } = await render(bytes, 'application/xml', 'de-DE');
      assert.equal(response.status, 200);
      const text = squash(pdfPages(pdf, 'raw').join('\n'));
      for (const wanted of [
        'ZUGFeRD 1.0',
        'ZF1-2026-007',
        'Werkstatt Lindner GmbH',
        'Café Morgenrot',
        formatAmount('411.57', 'de-DE'),
      ])
        assert.ok(text.includes(squash(wanted)), wanted);
    },
  );

  test(
    'every file of the ZUGFeRD 1.0 corpus, XML and PDF',
    { skip: CORPUS_PRESENT ? false : CORPUS_ABSENT_MESSAGE, timeout: 600_000 },
    async () => {
      const folder = join(SHARED_EINVOICE, 'corpus', 'zugferd1');
      const names = readFileSync(join(folder, 'MANIFEST.tsv'), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split('\t')[0]!);
      const failures: string[] = [];
      for (const name of names) {
        const bytes = readFileSync(join(folder, name));
        const format = name.endsWith('.pdf') ? 'pdf' : 'xml';
        const { response, pdf } = await render(bytes, format === 'pdf' ? 'application/pdf' : 'application/xml');
        if (response.status !== 200) {
          failures.push(`${name}: ${response.status} ${pdf.toString('utf8').slice(0, 300)}`);
          continue;
        }
        const { invoice } = readInbound(bytes, format);
        const text = squash(pdfPages(pdf, 'raw').join('\n'));
        const due = invoice.totals.duePayable ?? invoice.totals.grandTotal ?? '';
        const wanted = [invoice.number, invoice.seller.name, formatAmount(due, 'en-GB')];
        const missing = wanted.filter((value) => value !== '' && !text.includes(squash(value)));
        if (missing.length > 0) failures.push(`${name}: missing ${JSON.stringify(missing)}`);
      }
      assert.deepEqual(failures, [], `${names.length - failures.length} of ${names.length} rendered with their values`);
    },
  );
});
