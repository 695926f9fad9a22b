import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fatturaPAFieldsOf, produceFatturaPA } from '../../src/einvoice/formats/fatturapa/request.js';
import { prepareProfiledEInvoice } from '../../src/einvoice/prepareEInvoice.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { FATTURAPA_EXAMPLES } from '../fixtures/fatturapaExamples.js';
import { normalizeText, pdfPages } from '../fixtures/pdfTools.js';
import { withBodies } from '../support/fatturapaBodies.js';
import type { JsonAnswer } from '../support/json.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

/**
 * A signed FatturaPA (.xml.p7m) over MCP, as p7m_base64: inspect and render.pdf read the XML inside
 * the CAdES envelope as the HTTP route reads an application/pkcs7-mime body. The .p7m is signed here
 * with openssl (`cms -sign -nodetach -binary -stream -outform DER`: BER, indefinite lengths, as Italian
 * signing tools write) and a test certificate made here.
 */
const SIGNER = '/C=IT/O=Studio Rossi/CN=Mario Rossi';

let renderer: Renderer;
let app: TestApp;
let client: Client;
let dir: string;
let p7m: Buffer;
before(
  async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-p7m-'));
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', SIGNER,
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' }); // prettier-ignore
    const checked = prepareProfiledEInvoice(FATTURAPA_EXAMPLES['td01-mixed-rates'], 'fatturapa');
    const xml = produceFatturaPA(checked.prepared, fatturaPAFieldsOf(checked)!).xml;
    writeFileSync(join(dir, 'invoice.xml'), withBodies(xml, [{ number: 'FT-101' }, { number: 'FT-102' }]));
    execFileSync('openssl', [
      'cms', '-sign', '-nodetach', '-binary', '-stream', '-outform', 'DER', '-in', join(dir, 'invoice.xml'),
      '-signer', join(dir, 'cert.pem'), '-inkey', join(dir, 'key.pem'), '-out', join(dir, 'invoice.xml.p7m'),
    ]); // prettier-ignore
    p7m = readFileSync(join(dir, 'invoice.xml.p7m'));
    renderer = await createRenderer({ poolSize: 1 });
    app = await startTestApp({ PRICES: 'v1_e_invoice_render_pdf=0', COMPUTE_THREADS: '1' }, { renderer });
    client = new Client({ name: 'mcp-p7m-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`)));
  },
  { timeout: 60_000 },
);
after(async () => {
  await client?.close();
  await app?.close();
  await renderer?.close();
  rmSync(dir, { recursive: true, force: true });
});

type Result = {
  isError?: boolean;
  structuredContent?: Record<string, JsonAnswer>;
  content: { type: string; resource?: { mimeType: string; blob?: string } }[];
};
const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Result;

test('inspect reads the XML inside a base64 .p7m: its signer, both bodies', async () => {
  const result = await call('v1_e_invoice_inspect', { p7m_base64: p7m.toString('base64') });
  assert.notEqual(result.isError, true, JSON.stringify(result).slice(0, 500));
  const answer = result.structuredContent!;
  assert.deepEqual([...p7m.subarray(0, 2)], [0x30, 0x80], 'BER');
  assert.equal(answer.envelope, 'cades');
  assert.deepEqual(answer.source.signature, {
    present: true,
    verified: false,
    signers: ['CN=Mario Rossi, O=Studio Rossi, C=IT'],
  });
  assert.equal(answer.source.documents, 2);
  assert.deepEqual(
    (answer.documents as unknown as { invoice_number: string }[]).map((document) => document.invoice_number),
    ['FT-101', 'FT-102'],
  );
});

test('render.pdf prints the XML inside a base64 .p7m', { timeout: 120_000 }, async () => {
  const result = await call('v1_e_invoice_render_pdf', { p7m_base64: p7m.toString('base64'), locale: 'it' });
  assert.notEqual(result.isError, true, JSON.stringify(result).slice(0, 500));
  const resource = result.content.find((item) => item.type === 'resource')?.resource;
  assert.equal(resource?.mimeType, 'application/pdf');
  const text = normalizeText(pdfPages(Buffer.from(resource!.blob!, 'base64')).join('\n')).replace(/\s+/g, ' ');
  // The note is the page's language (Italian here), the signer as the certificate names it.
  assert.ok(text.includes('Firmato (CAdES .p7m) da CN=Mario Rossi'), text.slice(0, 400));
  assert.ok(text.includes('Documento 2') && !text.includes('FatturaElettronicaBody'));
});

test('a truncated envelope, two documents at once and text that is not base64 are refused with a stable code', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ p7m_base64: p7m.subarray(0, p7m.length - 40).toString('base64') }, 'p7m_malformed'],
    [{ p7m_base64: p7m.toString('base64'), xml: '<x/>' }, 'validation_failed'],
    [{ p7m_base64: 'not base64!' }, 'validation_failed'],
  ];
  for (const [args, code] of cases) {
    const result = await call('v1_e_invoice_inspect', args);
    assert.equal(result.isError, true, code);
    assert.equal(result.structuredContent?.error.code, code);
  }
});
