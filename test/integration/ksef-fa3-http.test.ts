import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { KSEF_EXAMPLE } from '../../src/einvoice/formats/ksef/ksefExample.js';
import type { JsonAnswer } from '../support/json.js';
import { postJson, startTestApp, type TestApp } from '../support/testApp.js';

/**
 * POST /v1/e-invoice/ksef.xml over HTTP: a request that breaks an FA(3) rule is a 400 naming every
 * field before any payment (the priced app has no payment processor and answers 501 only for what
 * passed, so its 400 proves the refusal comes first); validate with profile ksef answers the same
 * issues and the FA(3) amounts; the route is an MCP tool taking the ksef object.
 */
let free: TestApp;
let priced: TestApp;
before(
  async () => {
    free = await startTestApp({ PRICES: 'v1_e_invoice_ksef_xml=0' });
    priced = await startTestApp({});
  },
  { timeout: 60_000 },
);
after(async () => {
  await free?.close();
  await priced?.close();
});

const broken = {
  ...KSEF_EXAMPLE,
  seller: { ...KSEF_EXAMPLE.seller, vat_id: 'PL5250000008' },
  currency: 'EUR',
  ksef: { ...KSEF_EXAMPLE.ksef, exemption: undefined },
};

test('ksef.xml answers the FA(3); priced, a good request reaches payment (501 here) and a bad one never does', async () => {
  const response = await postJson(`${free.url}/v1/e-invoice/ksef.xml`, KSEF_EXAMPLE);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /application\/xml/);
  assert.equal(
    response.headers.get('content-disposition'),
    'attachment; filename="invoice-FV_2026_03_0042-ksef-fa3.xml"',
  );
  const xml = await response.text();
  assert.match(xml, /<Faktura xmlns="http:\/\/crd\.gov\.pl\/wzor\/2025\/06\/25\/13775\/">/);
  assert.match(xml, /<P_15>16889\.68<\/P_15>/);
  assert.equal((await postJson(`${priced.url}/v1/e-invoice/ksef.xml`, KSEF_EXAMPLE)).status, 501);
  const refused = await postJson(`${priced.url}/v1/e-invoice/ksef.xml`, broken);
  const body = (await refused.json()) as JsonAnswer;
  assert.equal(refused.status, 400);
  assert.equal(body.error.code, 'einvoice_rules_failed');
  assert.deepEqual(
    body.error.issues.map((issue: { code: string; path: string }) => [issue.code, issue.path]),
    [
      ['ksef_nip_checksum', 'seller.vat_id'],
      ['ksef_exemption_basis', 'ksef.exemption'],
      ['ksef_exchange_rate', 'ksef.exchange_rate'],
    ],
  );
});

test('validate with profile ksef: every issue, and the amounts the XML writes', async () => {
  const bad = (await (await postJson(`${priced.url}/v1/e-invoice/validate`, broken)).json()) as JsonAnswer;
  assert.equal(bad.valid, false);
  assert.equal(bad.issues.length, 3);
  const good = (await (await postJson(`${priced.url}/v1/e-invoice/validate`, KSEF_EXAMPLE)).json()) as JsonAnswer;
  assert.equal(good.valid, true);
  assert.equal(good.profile, 'ksef');
  assert.deepEqual(good.format_amounts, {
    P_13_1: '10000.00',
    P_14_1: '2300.00',
    P_13_2: '546.00',
    P_14_2: '43.68',
    P_13_7: '4000.00',
    P_15: '16889.68',
  });
  assert.equal(good.totals.total.decimal, '16889.68');
});

test('the MCP tool v1_e_invoice_ksef_xml takes the ksef object', async () => {
  const client = new Client({ name: 'ksef-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${free.url}/mcp`)));
  try {
    const { tools } = await client.listTools();
    const tool = tools.find((entry) => entry.name === 'v1_e_invoice_ksef_xml');
    assert.ok(tool);
    assert.ok((tool.inputSchema.properties as Record<string, unknown>).ksef);
  } finally {
    await client.close();
  }
});
