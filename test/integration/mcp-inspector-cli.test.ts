import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../src/render/templates.js';
import { TOOL_LIST_BUDGET_BYTES } from '../../src/http/mcp/mcpTools.js';
import { startChallengeApp } from '../support/challengeApp.js';
import type { JsonAnswer } from '../support/json.js';

/**
 * The official MCP Inspector's command-line mode (@modelcontextprotocol/inspector --cli) against
 * the app with its real payment gate: it lists the tools, calls a free tool and gets a paid tool's
 * PaymentRequired, as an agent developer would try the server.
 */
const INSPECTOR = join(PROJECT_ROOT, 'node_modules', '.bin', 'mcp-inspector');
let app: Awaited<ReturnType<typeof startChallengeApp>>;
before(async () => {
  app = await startChallengeApp();
});
after(async () => {
  await app?.close();
});

async function inspector(...args: string[]): Promise<JsonAnswer> {
  const { stdout } = await promisify(execFile)(INSPECTOR, ['--cli', `${app.url}/mcp`, '--transport', 'http', ...args], {
    timeout: 60_000,
    maxBuffer: 4 * 1024 * 1024,
  });
  return JSON.parse(stdout) as JsonAnswer;
}

test('the Inspector CLI lists the tools within the budget', { timeout: 120_000 }, async () => {
  const { tools } = await inspector('--method', 'tools/list');
  const bytes = Buffer.byteLength(JSON.stringify(tools));
  console.log(`# inspector --cli --method tools/list: ${tools.length} tools, ${bytes} bytes`);
  assert.ok(bytes <= TOOL_LIST_BUDGET_BYTES);
  assert.ok(tools.some((tool: JsonAnswer) => tool.name === 'v1_invoice_pdf'));
});

test('the Inspector CLI calls a free tool and gets a paid tool’s PaymentRequired', { timeout: 120_000 }, async () => {
  const invoice = [
    'seller={"name":"Northwind Studio"}',
    'buyer={"name":"Acme Robotics"}',
    'invoice_number=INV-7',
    'issue_date=2026-11-26',
    'line_items=[{"description":"Design work","quantity":2,"unit_price":150}]',
  ];
  const free = await inspector(
    '--method',
    'tools/call',
    '--tool-name',
    'v1_invoice_validate',
    '--tool-arg',
    ...invoice,
  );
  console.log(`# inspector --cli tools/call v1_invoice_validate: ${JSON.stringify(free.structuredContent.total)}`);
  assert.equal(free.isError, undefined);
  assert.equal(free.structuredContent.total.decimal, '300.00');

  const paid = await inspector('--method', 'tools/call', '--tool-name', 'v1_invoice_pdf', '--tool-arg', ...invoice);
  console.log(
    `# inspector --cli tools/call v1_invoice_pdf: isError ${paid.isError}, accepts ${JSON.stringify(paid.structuredContent.accepts)}`,
  );
  assert.equal(paid.isError, true);
  assert.equal(paid.structuredContent.x402Version, 2);
  assert.equal(paid.structuredContent.accepts[0].amount, '20000');
});
