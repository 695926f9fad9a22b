import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EXAMPLE_VERIFACTU_REQUEST } from '../../src/einvoice/formats/verifactu/example.js';
import { postJson, startTestApp, type TestApp } from '../support/testApp.js';

/**
 * VERI*FACTU records read back over HTTP and MCP: three records made by POST
 * /v1/e-invoice/verifactu.xml, each naming the one before it, put in one message as AEAT takes
 * them; POST /v1/e-invoice/inspect (free) answers each record's huella recomputed, its link and its
 * QR URL (the one /v1/e-invoice/validate reports for the PDF of the same request), a tampered
 * amount in one record only; render.pdf refuses the message before payment (the priced app has no
 * payment processor: anything that passed its parse would be a 501).
 */
let free: TestApp;
let priced: TestApp;
let client: Client;
let message: string;
let qrUrls: string[];

type Finding = {
  index: number;
  kind: string;
  invoice_number: string;
  issue_date: string;
  huella: { stated: string; computed: string; matches: boolean };
  chain: { link: string; message: string | null };
  qr_url: string | null;
};
type Answer = {
  syntax: string;
  envelope: string | null;
  records: Finding[];
  huellas_match: boolean;
  chain_intact: boolean;
};

const NUMBERS = ['F2026-0101', 'F2026-0102', 'F2026-0103'];

before(
  async () => {
    free = await startTestApp({ PRICES: 'v1_e_invoice_verifactu_xml=0' });
    priced = await startTestApp({});
    const holders: string[] = [];
    let previous: object = EXAMPLE_VERIFACTU_REQUEST.verifactu.previous;
    qrUrls = [];
    let first = '';
    for (const invoice_number of NUMBERS) {
      const request = {
        ...EXAMPLE_VERIFACTU_REQUEST,
        invoice_number,
        verifactu: { ...EXAMPLE_VERIFACTU_REQUEST.verifactu, previous },
      };
      const response = await postJson(`${free.url}/v1/e-invoice/verifactu.xml`, request);
      assert.equal(response.status, 200);
      const xml = await response.text();
      first ||= xml;
      holders.push(/<sum:RegistroFactura>[\s\S]*<\/sum:RegistroFactura>/.exec(xml)![0]);
      previous = {
        issuer_nif: EXAMPLE_VERIFACTU_REQUEST.seller.vat_id.slice(2),
        invoice_number,
        issue_date: EXAMPLE_VERIFACTU_REQUEST.issue_date,
        huella: response.headers.get('x-verifactu-huella'),
      };
      // The QR URL the PDF of the same request prints, as validate reports it.
      const validated = await postJson(`${free.url}/v1/e-invoice/validate`, { ...request, profile: 'verifactu' });
      assert.equal(validated.status, 200);
      qrUrls.push(((await validated.json()) as { verifactu: { qr_url: string } }).verifactu.qr_url);
    }
    message = first.replace(/<sum:RegistroFactura>[\s\S]*<\/sum:RegistroFactura>/, () => holders.join(''));
    client = new Client({ name: 'verifactu-inspect-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${free.url}/mcp`)));
  },
  { timeout: 60_000 },
);
after(async () => {
  await client?.close();
  await free?.close();
  await priced?.close();
});

const inspect = async (app: TestApp, xml: string) => {
  const response = await fetch(`${app.url}/v1/e-invoice/inspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/xml' },
    body: xml,
    signal: AbortSignal.timeout(30_000),
  });
  assert.equal(response.status, 200);
  return (await response.json()) as Answer;
};

test("inspect over HTTP (free): each record's huella recomputed, the chain linked, each QR URL the PDF's", async () => {
  const answer = await inspect(priced, message);
  assert.equal(answer.syntax, 'verifactu');
  assert.ok(answer.huellas_match && answer.chain_intact);
  assert.deepEqual(
    answer.records.map((record) => [record.kind, record.invoice_number, record.chain.link, record.huella.matches]),
    [
      ['alta', NUMBERS[0], 'outside', true],
      ['alta', NUMBERS[1], 'linked', true],
      ['alta', NUMBERS[2], 'linked', true],
    ],
  );
  assert.deepEqual(
    answer.records.map((record) => record.qr_url),
    qrUrls,
  );
  // The JSON form { xml }, as MCP sends it, answers the same.
  const json = await postJson(`${priced.url}/v1/e-invoice/inspect`, { xml: message });
  assert.equal(json.status, 200);
  assert.deepEqual(await json.json(), answer);
});

test('a tampered amount: its huella does not match, the rest is read; a record dropped breaks the next link', async () => {
  const tampered = message.replace(/(<sum1:ImporteTotal>)([^<]*)(<\/sum1:ImporteTotal>)/, '$19999.99$3');
  const answer = await inspect(priced, tampered);
  assert.deepEqual(
    answer.records.map((record) => record.huella.matches),
    [false, true, true],
  );
  assert.equal(answer.records.length, 3);
  assert.match(answer.records[0]!.qr_url ?? '', /importe=9999\.99$/);
  const holders = message.match(/<sum:RegistroFactura>[\s\S]*?<\/sum:RegistroFactura>/g)!;
  assert.equal(holders.length, 3);
  const dropped = await inspect(priced, message.replace(holders[1]!, ''));
  assert.equal(dropped.chain_intact, false);
  assert.equal(dropped.records[1]!.chain.link, 'broken');
  assert.match(dropped.records[1]!.chain.message ?? '', /^record 1 \(F2026-0103 of [\d-]+\) names F2026-0102 /);
});

test('render.pdf of records: 400 einvoice_not_printable before any payment', async () => {
  const response = await fetch(`${priced.url}/v1/e-invoice/render.pdf`, {
    method: 'POST',
    headers: { 'content-type': 'application/xml' },
    body: message,
    signal: AbortSignal.timeout(30_000),
  });
  assert.equal(response.status, 400);
  assert.equal(response.headers.get('payment-required'), null);
  const body = (await response.json()) as { error: { code: string; message: string } };
  assert.equal(body.error.code, 'einvoice_not_printable');
  assert.match(body.error.message, /VERI\*FACTU billing record message/);
});

test('inspect over MCP: the same answer as structured content', async () => {
  const result = (await client.callTool({ name: 'v1_e_invoice_inspect', arguments: { xml: message } })) as {
    isError?: boolean;
    structuredContent?: Answer;
  };
  assert.notEqual(result.isError, true, JSON.stringify(result).slice(0, 500));
  const answer = result.structuredContent!;
  assert.equal(answer.records.length, 3);
  assert.ok(answer.huellas_match && answer.chain_intact);
  assert.deepEqual(
    answer.records.map((record) => record.qr_url),
    qrUrls,
  );
  const refused = (await client.callTool({ name: 'v1_e_invoice_render_pdf', arguments: { xml: message } })) as {
    isError?: boolean;
    content: { type: string; text?: string }[];
  };
  assert.equal(refused.isError, true);
  assert.match(refused.content[0]?.text ?? '', /einvoice_not_printable/);
});
