import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { EXAMPLE_PROFILE_REQUESTS } from '../../../src/einvoice/example.js';
import { checkEInvoice } from '../../../src/einvoice/prepareEInvoice.js';

/** docs/e-invoices-national.md and docs/e-invoices-pint.md show the examples the service checks (and the oracle tests pass). */
const doc = ['e-invoices-national.md', 'e-invoices-pint.md']
  .map((page) => readFileSync(new URL(`../../../docs/${page}`, import.meta.url), 'utf8'))
  .join('\n');

test('each profile section shows its example request as written in src/einvoice/example.ts', () => {
  for (const [profile, body] of Object.entries(EXAMPLE_PROFILE_REQUESTS)) {
    // Italy has its own page, docs/e-invoices-italy.md (test/unit/einvoice/fatturapa-docs.test.ts); Spain too (below).
    if (profile === 'fatturapa' || profile === 'verifactu') continue;
    const block = new RegExp(`\`${profile}\\.json\`[^\\n]*:\\n\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``).exec(doc);
    assert.ok(block, `${profile}.json block`);
    assert.deepEqual(JSON.parse(block[1]!), body);
    assert.deepEqual(checkEInvoice(JSON.parse(block[1]!)).issues, [], profile);
    assert.match(doc, new RegExp(`npm run buy -- --route /v1/e-invoice/\\S+ ${profile}\\.json`));
  }
});

test("docs/e-invoices-spain.md's worked example is the verifactu profile's example request, and it passes the checks", () => {
  const spain = readFileSync(new URL('../../../docs/e-invoices-spain.md', import.meta.url), 'utf8');
  const block = /## A worked example[\s\S]*?```json\n([\s\S]*?)\n```/.exec(spain);
  assert.ok(block, 'the worked example block');
  const { profile, ...request } = EXAMPLE_PROFILE_REQUESTS.verifactu;
  assert.equal(profile, 'verifactu');
  assert.deepEqual(JSON.parse(block[1]!), request);
  assert.deepEqual(checkEInvoice(EXAMPLE_PROFILE_REQUESTS.verifactu).issues, []);
});

test('the removals the page shows give the rule it names', () => {
  /** The parts of an example request the removals below touch. */
  type Removable = { buyer_reference?: string; seller: { legal_registration?: unknown } };
  const without = (body: Record<string, unknown>, drop: (copy: Removable) => void) => {
    const copy = structuredClone(body);
    drop(copy as unknown as Removable);
    return checkEInvoice(copy).issues.map((issue) => [issue.code, issue.path]);
  };
  assert.deepEqual(
    without(EXAMPLE_PROFILE_REQUESTS.xrechnung, (copy) => delete copy.buyer_reference),
    [['BR-DE-15', 'buyer_reference']],
  );
  assert.deepEqual(
    without(EXAMPLE_PROFILE_REQUESTS.fr, (copy) => delete copy.seller.legal_registration),
    [['BR-FR-10', 'seller.legal_registration']],
  );
});
