import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { EXAMPLE_EINVOICE } from '../../src/einvoice/example.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { jsonSchemaOf } from '../../src/invoice/fieldNotes.js';
import { InvoiceSchema } from '../../src/invoice/schema.js';
import { TOOL_BUDGET_BYTES, TOOL_LIST_BUDGET_BYTES } from '../../src/http/mcp/mcpTools.js';
import { operationList } from '../../src/operations/operationList.js';
import { startChallengeApp } from '../support/challengeApp.js';
import type { JsonAnswer } from '../support/json.js';

/**
 * MCP as an agent meets it, through the SDK's own client against the app with its real payment
 * gate (default configuration): a tool list it can afford, descriptions and schemas it can act
 * on, results it can read, and every bad call an isError result naming its path.
 */
let app: Awaited<ReturnType<typeof startChallengeApp>>;
let client: Client;
before(async () => {
  app = await startChallengeApp();
  client = new Client({ name: 'mcp-agents-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`)));
});
after(async () => {
  await client?.close();
  await app?.close();
});

type Result = { isError?: boolean; structuredContent?: JsonAnswer; content: JsonAnswer[] };
const call = async (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as Result;

/** A raw JSON-RPC tools/call, for what the SDK's client would never send. */
async function rawCall(params: unknown) {
  const response = await fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }),
    signal: AbortSignal.timeout(30_000),
  });
  assert.equal(response.status, 200);
  return (await response.json()) as { id: number; result?: Result; error?: unknown };
}

describe('tools/list', () => {
  test('fits the budget: at most 32 KiB in all and 4 KiB per tool, with a tool for every operation of the list', async () => {
    const { tools } = await client.listTools();
    const sizes = tools.map((tool) => [tool.name, Buffer.byteLength(JSON.stringify(tool))] as const);
    const total = Buffer.byteLength(JSON.stringify(tools));
    console.log(`# tools/list ${total} bytes: ${sizes.map(([name, bytes]) => `${name} ${bytes}`).join(', ')}`);
    assert.ok(total <= TOOL_LIST_BUDGET_BYTES, `tools/list is ${total} bytes`);
    for (const [name, bytes] of sizes) assert.ok(bytes <= TOOL_BUDGET_BYTES, `${name} is ${bytes} bytes`);
    const names = new Set(tools.map((tool) => tool.name));
    const operations = operationList().filter(
      (row) => (row.tag === 'Invoices' || row.tag === 'Helpers') && row.mcpTool !== false,
    );
    for (const row of operations) assert.ok(names.has(row.operationId), `${row.operationId} is a tool`);
    for (const row of operationList().filter((row) => row.mcpTool === false))
      assert.ok(!names.has(row.operationId), `${row.operationId} is HTTP only`);
    assert.ok(names.has('field_schema'));
  });

  test("each description's first sentence says what the tool returns and what it costs; the server says how to pay", async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const first = tool.description!.split(/\.\s/)[0]!;
      assert.match(first, /returns/i, tool.name);
      assert.match(first, /free|\d USD/, tool.name);
    }
    assert.match(tools.find((tool) => tool.name === 'v1_invoice_pdf')!.description!, /^[^.]*costs 0\.02 USD per call/);
    assert.match(tools.find((tool) => tool.name === 'v1_invoices_zip')!.description!, /0\.02 USD per invoice/);
    assert.match(client.getInstructions() ?? '', /_meta\["x402\/payment"\]/);
    for (const tool of tools) assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an outputSchema`);
  });

  test('the invoice is written out once (v1_invoice_validate) and named by the tools that take it', async () => {
    const { tools } = await client.listTools();
    const validate = tools.find((tool) => tool.name === 'v1_invoice_validate')!;
    const properties = validate.inputSchema.properties as Record<string, JsonAnswer>;
    assert.deepEqual(validate.inputSchema.required, ['seller', 'buyer', 'invoice_number', 'issue_date', 'line_items']);
    assert.deepEqual(properties.line_items.items.required, ['description', 'quantity', 'unit_price']);
    assert.match(validate.inputSchema.description as string, /field_schema.*theme/);
    const pdf = tools.find((tool) => tool.name === 'v1_invoice_pdf')!;
    assert.match(pdf.inputSchema.description as string, /Same as v1_invoice_validate's arguments/);
    const cii = tools.find((tool) => tool.name === 'v1_e_invoice_cii_xml')!;
    assert.ok((cii.inputSchema.properties as Record<string, unknown>).profile);
  });

  test('every tool keeps its required fields, and each e-invoice tool and a batch item the whole profile enum', async () => {
    const { tools } = await client.listTools();
    const withProfile: string[] = [];
    for (const row of operationList()) {
      const tool = tools.find((candidate) => candidate.name === row.operationId);
      if (!tool || !row.request) continue;
      const full = jsonSchemaOf(row.request.schema) as JsonAnswer;
      const listed = tool.inputSchema as JsonAnswer;
      const profile = (listed.properties?.profile ?? listed.properties?.invoices?.items?.properties?.profile) as
        JsonAnswer | undefined;
      const fullProfile = full.properties?.profile ?? full.properties?.invoices?.items?.properties?.profile;
      if (fullProfile) {
        withProfile.push(row.operationId);
        assert.deepEqual(profile?.enum, fullProfile.enum, `${row.operationId}: the profile enum`);
      }
      assert.deepEqual(listed.required ?? [], full.required ?? [], `${row.operationId}: its required fields`);
    }
    for (const name of [
      'v1_e_invoice_cii_xml',
      'v1_e_invoice_ubl_xml',
      'v1_e_invoice_factur_x_pdf',
      'v1_e_invoice_validate',
    ])
      assert.ok(withProfile.includes(name), `${name} takes a profile`);
    assert.ok(withProfile.includes('v1_invoices_zip'), 'a batch item takes a profile');
  });

  test("a summary only loosens: every example request of every row fits its tool's advertised inputSchema", async () => {
    const { tools } = await client.listTools();
    const validator = new AjvJsonSchemaValidator();
    let checked = 0;
    for (const row of operationList()) {
      const tool = tools.find((candidate) => candidate.name === row.operationId);
      if (!tool || !row.request) continue;
      const accepts = validator.getValidator(tool.inputSchema as never);
      for (const example of [row.request.example, ...Object.values(row.request.moreExamples ?? {})]) {
        const verdict = accepts(example);
        assert.ok(verdict.valid, `${row.operationId}: ${verdict.errorMessage}`);
        checked++;
      }
    }
    assert.ok(checked >= 14, `${checked} examples checked`);
  });

  test('/.well-known/mcp/server.json lists exactly the tools tools/list answers, with the same prices', async () => {
    const { tools } = await client.listTools();
    const doc = (await (await fetch(`${app.url}/.well-known/mcp/server.json`)).json()) as JsonAnswer;
    const listed = doc._meta['io.modelcontextprotocol.registry/publisher-provided'].tools as JsonAnswer[];
    assert.deepEqual(
      listed.map((tool) => [tool.name, tool.title, tool.price?.amount]),
      tools.map((tool) => [tool.name, tool.title, (tool._meta?.['x402/price'] as JsonAnswer)?.amount]),
    );
  });
});

describe('field_schema and the schema resources', () => {
  test('give the full JSON Schema of a summarised field, as the server validates it', async () => {
    const full = jsonSchemaOf(InvoiceSchema) as JsonAnswer;
    const result = await call('field_schema', { tool: 'v1_invoice_pdf', field: 'theme' });
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.structuredContent!.schema, full.properties.theme);
    const resource = await client.readResource({ uri: 'schema://v1_invoice_pdf/theme' });
    assert.deepEqual(JSON.parse((resource.contents[0] as { text: string }).text), full.properties.theme);
    const unknown = await call('field_schema', { tool: 'v1_invoice_pdf', field: 'no_such_field' });
    assert.equal(unknown.isError, true);
    assert.equal(unknown.structuredContent!.error.code, 'not_found');
  });
});

describe('calls', () => {
  test('a free tool answers JSON the client checks against its outputSchema', async () => {
    const result = await call('v1_invoice_validate', EXAMPLE_INVOICE);
    assert.equal(result.isError, undefined);
    assert.equal(result.structuredContent!.total.decimal, '10803.74');
    assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  });

  test("a paid tool's call without payment is its PaymentRequired", async () => {
    const result = await call('v1_invoice_pdf', EXAMPLE_INVOICE);
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent!.x402Version, 2);
    assert.equal(result.structuredContent!.accepts[0].amount, '20000');
  });

  test('bad input is an isError result with a clear message and path, never a protocol error, never charged', async () => {
    const unknownTool = await call('v1_no_such_tool', {});
    assert.equal(unknownTool.isError, true);
    assert.equal(unknownTool.structuredContent!.error.code, 'not_found');

    const deep = await call('v1_invoice_pdf', {
      ...EXAMPLE_INVOICE,
      line_items: [{ ...EXAMPLE_INVOICE.line_items[0], quantity: 'three' }],
    });
    assert.equal(deep.isError, true);
    assert.equal(deep.structuredContent!.error.code, 'validation_failed');
    assert.deepEqual(
      deep.structuredContent!.error.issues.map((issue: JsonAnswer) => issue.path),
      ['line_items[0].quantity'],
    );

    for (const args of ['an invoice', [EXAMPLE_INVOICE], 42]) {
      const answer = await rawCall({ name: 'v1_invoice_validate', arguments: args });
      assert.equal(answer.id, 7);
      assert.equal(answer.error, undefined);
      assert.equal(answer.result!.isError, true);
      assert.equal(answer.result!.structuredContent!.error.code, 'validation_failed');
      assert.equal(answer.result!.structuredContent!.error.issues[0].path, '');
    }

    // A payment made out for another tool's price (the CII XML's 0.01 USD) is refused before any facilitator.
    const cii = await call('v1_e_invoice_cii_xml', EXAMPLE_EINVOICE);
    const accepted = cii.structuredContent!.accepts[0];
    const payment = {
      x402Version: 2,
      resource: cii.structuredContent!.resource,
      accepted,
      payload: {
        signature: `0x${'11'.repeat(65)}`,
        authorization: {
          from: '0x2222222222222222222222222222222222222222',
          to: accepted.payTo,
          value: accepted.amount,
          validAfter: '0',
          validBefore: String(Math.floor(Date.now() / 1000) + 600),
          nonce: `0x${'33'.repeat(32)}`,
        },
      },
    };
    const misdirected = await call('v1_invoice_pdf', EXAMPLE_INVOICE, { 'x402/payment': payment });
    assert.equal(misdirected.isError, true);
    assert.equal(misdirected.structuredContent!.x402Version, 2, JSON.stringify(misdirected.structuredContent));
    assert.equal(misdirected.structuredContent!.accepts[0].amount, '20000');
  });
});
