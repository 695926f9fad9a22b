import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toolDescription } from '../../../src/http/mcp/toolText.js';
import { operationList } from '../../../src/operations/operationList.js';
import type { PricedOperation } from '../../../src/operations/operation.js';

const priced = (operation: ReturnType<typeof operationList>[number]): PricedOperation => ({
  ...operation,
  priceUsd: '0.01',
});

// A tool's description keeps the row's sentences whole and in order: a "." inside a sentence
// ("XRechnung 3.0", "crd.gov.pl", "e.g.") once ended one there and the text before it was lost.
test("a tool description's detail is the row's description cut after whole sentences, never mid-sentence", () => {
  for (const operation of operationList()) {
    const description = toolDescription(priced(operation));
    const detail = description
      .replace(/^.*?(; free|\(x402, see the server instructions\))\. /, '')
      .replace(/ \(More in \/openapi\.json\.\)$/, '');
    const cut = detail.endsWith('…') ? detail.slice(0, -1) : detail;
    assert.ok(operation.description.startsWith(cut), `${operation.operationId}: "${detail}"`);
  }
  const cii = operationList().find((operation) => operation.operationId === 'v1_e_invoice_cii_xml')!;
  assert.match(toolDescription(priced(cii)), /XRechnung 3\.0 \/ France with their profile\./);
});

test('a first sentence longer than the limit is cut at a word, with an ellipsis', () => {
  const batch = operationList().find((operation) => operation.operationId === 'v1_invoices_zip')!;
  const description = toolDescription(priced(batch), 80);
  assert.match(description, /\w… \(More in \/openapi\.json\.\)$/);
});
