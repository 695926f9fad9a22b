import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mcpTools } from '../../../src/http/mcp/mcpTools.js';
import { operationList } from '../../../src/operations/operationList.js';
import type { PricedOperation } from '../../../src/operations/operation.js';

// Each app's operation rows, as createApp prices them: new row objects (their handlers the app's own).
const rows = (priceUsd: (operationId: string) => string): PricedOperation[] =>
  operationList().map((operation) => ({ ...operation, priceUsd: priceUsd(operation.operationId) }));
const entries = (tools: ReturnType<typeof mcpTools>) => JSON.stringify(tools.map(({ route: _route, ...tool }) => tool));

// The tools are summarised once a process for the same rows' data (mcpTools.ts): another app gets
// the same entries with its own rows, and rows that differ (a price, a description) their own.
test("another app's tools: the same entries, its own rows; rows that differ get entries of their own", () => {
  const first = rows(() => '0.02');
  const second = rows(() => '0.02');
  const [a, b] = [mcpTools(first), mcpTools(second)];
  assert.equal(entries(a), entries(b));
  assert.ok(b.every((tool) => second.includes(tool.route) && !first.includes(tool.route)));

  const dearer = mcpTools(rows((id) => (id === 'v1_invoice_pdf' ? '0.05' : '0.02')));
  const pdf = (tools: ReturnType<typeof mcpTools>) => tools.find((tool) => tool.name === 'v1_invoice_pdf')!;
  assert.deepEqual(pdf(dearer)._meta, { 'x402/price': { amount: '0.05', currency: 'USD' } });
  assert.match(pdf(dearer).description, /costs 0\.05 USD/);
  assert.deepEqual(pdf(mcpTools(first))._meta, { 'x402/price': { amount: '0.02', currency: 'USD' } });

  const reworded = rows(() => '0.02').map((row) =>
    row.operationId === 'v1_invoice_pdf' ? { ...row, description: 'Another description.' } : row,
  );
  assert.match(pdf(mcpTools(reworded)).description, /Another description\./);
  // A free row lists no price.
  assert.equal(pdf(mcpTools(rows(() => '0')))._meta, undefined);
});
