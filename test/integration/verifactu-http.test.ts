import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readRecords } from '../../src/einvoice/formats/verifactu/reader.js';
import { EXAMPLE_VERIFACTU_REQUEST } from '../../src/einvoice/formats/verifactu/example.js';
import { postJson, startTestApp, type TestApp } from '../support/testApp.js';

/**
 * POST /v1/e-invoice/verifactu.xml over HTTP: a request AEAT would refuse is a 400 naming the field
 * and AEAT's code before any payment (the priced app has no payment processor and answers 501
 * only for what passed, so a 400 there proves the refusal comes first); an accepted one is the
 * message generated at the call, its huella recomputed by the reader and sent in X-Verifactu-Huella,
 * the SistemaInformatico from the server's settings; /v1/invoice.pdf refuses the same bad request.
 */
let free: TestApp;
let priced: TestApp;

before(
  async () => {
    free = await startTestApp({
      PRICES: 'v1_e_invoice_verifactu_xml=0',
      VERIFACTU_PRODUCER_NAME: 'Operador Ejemplo SL',
      VERIFACTU_PRODUCER_NIF: 'B12345674',
      VERIFACTU_INSTALLATION: 'eu-west-1',
    });
    priced = await startTestApp({});
  },
  { timeout: 60_000 },
);
after(async () => {
  await free?.close();
  await priced?.close();
});

test('a valid request asks for payment (here: 501, no payment processor); a bad one is a 400 with AEAT codes first', async () => {
  const ok = await postJson(`${priced.url}/v1/e-invoice/verifactu.xml`, EXAMPLE_VERIFACTU_REQUEST);
  assert.equal(ok.status, 501);
  const bad = { ...EXAMPLE_VERIFACTU_REQUEST, seller: { ...EXAMPLE_VERIFACTU_REQUEST.seller, vat_id: 'ESB12345675' } };
  for (const path of ['/v1/e-invoice/verifactu.xml', '/v1/invoice.pdf']) {
    const refused = await postJson(`${priced.url}${path}`, bad);
    assert.equal(refused.status, 400, path);
    const body = (await refused.json()) as { error: { code: string; issues: { code: string; path: string }[] } };
    assert.equal(body.error.code, 'einvoice_rules_failed', path);
    assert.deepEqual(
      body.error.issues.map((issue) => [issue.code, issue.path]),
      [['4116', 'seller.vat_id']],
      path,
    );
  }
});

test('the record: generated at the call, chained, its huella the one the reader recomputes', async () => {
  const before = Date.now();
  const response = await postJson(`${free.url}/v1/e-invoice/verifactu.xml`, EXAMPLE_VERIFACTU_REQUEST);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^application\/xml/);
  const xml = await response.text();
  const report = readRecords(xml);
  assert.equal(report.records.length, 1);
  const [record] = report.records;
  assert.ok(record!.huella.matches);
  assert.equal(response.headers.get('x-verifactu-huella'), record!.huella.stated);
  assert.equal(record!.chain.previous?.huella, EXAMPLE_VERIFACTU_REQUEST.verifactu.previous.huella);
  const generated = Date.parse(record!.generated_at);
  assert.ok(
    generated >= Math.floor(before / 1000) * 1000 - 1000 && generated <= Date.now() + 1000,
    record!.generated_at,
  );
  assert.match(record!.generated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00$/);
  for (const fragment of [
    '<sum1:NombreRazon>Operador Ejemplo SL</sum1:NombreRazon>',
    '<sum1:NIF>B12345674</sum1:NIF>',
    '<sum1:NumeroInstalacion>eu-west-1</sum1:NumeroInstalacion>',
  ])
    assert.ok(xml.includes(fragment), fragment);
  const soap = await postJson(`${free.url}/v1/e-invoice/verifactu.xml`, {
    ...EXAMPLE_VERIFACTU_REQUEST,
    verifactu: { ...EXAMPLE_VERIFACTU_REQUEST.verifactu, soap: true },
  });
  assert.match(await soap.text(), /^<\?xml[^>]*>\n<soapenv:Envelope /);
});

test('the published invoice.pdf and validate request schemas list the verifactu object, with its description', async () => {
  const response = await fetch(`${priced.url}/openapi.json`);
  assert.equal(response.status, 200);
  type Field = { description?: string; properties?: Record<string, Field>; additionalProperties?: boolean };
  const document = (await response.json()) as {
    paths: Record<string, { post: { requestBody: { content: { 'application/json': { schema: Field } } } } }>;
  };
  for (const path of ['/v1/invoice.pdf', '/v1/invoice/validate']) {
    const schema = document.paths[path]!.post.requestBody.content['application/json'].schema;
    const verifactu = schema.properties?.verifactu;
    assert.ok(verifactu, `${path}: verifactu listed`);
    assert.match(verifactu.description ?? '', /VERI\*FACTU.*QR tributario/, path);
    for (const field of ['invoice_type', 'mode', 'previous', 'vat_groups'])
      assert.ok(verifactu.properties?.[field], `${path}: verifactu.${field}`);
    assert.equal(verifactu.additionalProperties, false, `${path}: verifactu is closed`);
    assert.ok(schema.properties?.seller && schema.properties.line_items, `${path}: the invoice's fields stay`);
  }
  // What is accepted did not change: the object is checked as before, an unknown key in it refused.
  const unknownKey = await postJson(`${priced.url}/v1/invoice/validate`, {
    ...EXAMPLE_VERIFACTU_REQUEST,
    verifactu: { ...EXAMPLE_VERIFACTU_REQUEST.verifactu, no_such_field: 1 },
  });
  assert.equal(unknownKey.status, 400);
  const body = (await unknownKey.json()) as { error: { issues: { path: string }[] } };
  assert.deepEqual(
    body.error.issues.map((issue) => issue.path),
    ['verifactu.no_such_field'],
  );
  const accepted = await postJson(`${priced.url}/v1/invoice/validate`, EXAMPLE_VERIFACTU_REQUEST);
  assert.equal(accepted.status, 200);
});

test("MCP: v1_invoice_pdf's input lists verifactu, and field_schema gives it in full with its description", async () => {
  const rpc = async (method: string, params?: unknown) => {
    const response = await fetch(`${priced.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) }),
    });
    const text = await response.text();
    const data = text.startsWith('{')
      ? text
      : text
          .split('\n')
          .find((line) => line.startsWith('data:'))!
          .slice(5);
    return (JSON.parse(data) as { result: Record<string, unknown> }).result;
  };
  type Tool = { name: string; inputSchema: { properties?: Record<string, unknown> } };
  const { tools } = (await rpc('tools/list')) as { tools: Tool[] };
  // v1_invoice_pdf's arguments are v1_invoice_validate's (named there, to save tools/list's budget).
  const validate = tools.find((tool) => tool.name === 'v1_invoice_validate');
  assert.ok(validate?.inputSchema.properties?.verifactu, 'v1_invoice_validate lists verifactu');
  const answer = (await rpc('tools/call', {
    name: 'field_schema',
    arguments: { tool: 'v1_invoice_pdf', field: 'verifactu' },
  })) as { isError?: boolean; structuredContent: { schema: { description?: string; properties?: object } } };
  assert.equal(answer.isError, undefined);
  assert.match(answer.structuredContent.schema.description ?? '', /QR tributario/);
  assert.ok('previous' in (answer.structuredContent.schema.properties ?? {}));
});
