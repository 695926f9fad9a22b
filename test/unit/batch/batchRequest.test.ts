import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prepareBatch } from '../../../src/batch/batchRequest.js';
import { EXAMPLE_EINVOICE, EXAMPLE_PROFILE_REQUESTS } from '../../../src/einvoice/example.js';
import { InputRejected } from '../../../src/errors.js';
import { EXAMPLE_INVOICE } from '../../../src/invoice/example.js';

const numbered = (n: number, base: object = EXAMPLE_INVOICE) =>
  Array.from({ length: n }, (_, i) => ({ ...base, invoice_number: `INV-${i + 1}` }));

function rejection(body: unknown): InputRejected {
  try {
    prepareBatch(body);
  } catch (error) {
    assert.ok(error instanceof InputRejected, String(error));
    return error;
  }
  assert.fail('the batch was accepted');
}

test('a valid batch is prepared item by item, format pdf by default', () => {
  const batch = prepareBatch({ invoices: numbered(3) });
  assert.equal(batch.format, 'pdf');
  assert.deepEqual(
    batch.invoices.map((prepared) => prepared.invoice.invoice_number),
    ['INV-1', 'INV-2', 'INV-3'],
  );
  assert.equal(prepareBatch({ format: 'ubl', invoices: numbered(2, EXAMPLE_EINVOICE) }).format, 'ubl');
});

test('0 and 51 items, an unknown format, a missing list and unknown properties are refused with their paths', () => {
  assert.deepEqual(
    rejection({ invoices: [] }).issues?.map((issue) => [issue.path, issue.code]),
    [['invoices', 'too_short']],
  );
  const tooMany = rejection({ invoices: numbered(51) });
  assert.deepEqual(
    tooMany.issues?.map((issue) => [issue.path, issue.code]),
    [['invoices', 'too_long']],
  );
  assert.match(tooMany.issues![0]!.message, /at most 50/);
  const bad = rejection({ format: 'docx', invoices: 'no', extra: 1 });
  assert.deepEqual(bad.issues?.map((issue) => [issue.path, issue.code]).sort(), [
    ['extra', 'unknown_property'],
    ['format', 'invalid_value'],
    ['invoices', 'invalid_type'],
  ]);
  assert.match(bad.issues!.find((issue) => issue.path === 'format')!.message, /pdf, factur-x, cii, ubl/);
  assert.equal(rejection([]).code, 'validation_failed');
  assert.equal(rejection({}).issues?.[0]?.path, 'invoices');
});

test('every issue of every item at once, each under its item index', () => {
  const invoices = numbered(4);
  invoices[1] = { ...invoices[1]!, line_items: [{ description: 'x', quantity: -1, unit_price: 1 }] } as never;
  invoices[3] = { ...invoices[3]!, currency: 'XXX', seller: undefined } as never;
  invoices[2] = 'not an invoice' as never;
  const error = rejection({ invoices });
  assert.equal(error.code, 'validation_failed');
  const paths = error.issues!.map((issue) => issue.path);
  assert.ok(paths.includes('invoices[1].line_items[0].quantity'), paths.join(', '));
  assert.ok(paths.includes('invoices[2]'), paths.join(', '));
  assert.ok(paths.includes('invoices[3].currency') && paths.includes('invoices[3].seller'), paths.join(', '));
  assert.ok(!paths.some((path) => path.startsWith('invoices[0]')));
  assert.match(error.message, /invoices 1, 2, 3/);
  assert.match(error.message, /Nothing was charged/);
});

test('an e-invoice format applies the EN 16931 rules to every item', () => {
  const error = rejection({
    format: 'cii',
    invoices: [EXAMPLE_EINVOICE, { ...EXAMPLE_INVOICE, invoice_number: 'PLAIN-1' }],
  });
  assert.equal(error.code, 'en16931_rules_failed');
  assert.ok(
    error.issues!.every((issue) => issue.path.startsWith('invoices[1]')),
    JSON.stringify(error.issues),
  );
});

test('two items with the same invoice number (letter case and spaces aside) are refused, naming both', () => {
  const invoices = numbered(3);
  invoices[2] = { ...invoices[2]!, invoice_number: ' inv-1 ' };
  const error = rejection({ invoices });
  assert.deepEqual(
    error.issues?.map((issue) => [issue.path, issue.code]),
    [['invoices[2].invoice_number', 'duplicate_invoice_number']],
  );
  assert.match(error.issues![0]!.message, /invoices\[0\]/);
});

test('an e-invoice item keeps its own profile, whose national rules are checked (its XML: produceBatch.test.ts)', () => {
  const batch = prepareBatch({
    format: 'ubl',
    invoices: [EXAMPLE_EINVOICE, { ...EXAMPLE_PROFILE_REQUESTS.peppol, invoice_number: 'P-1' }],
  });
  assert.deepEqual(batch.profiles, ['en16931', 'peppol']);
  // Peppol exists as UBL only; a national rule broken by one item is that item's issue.
  const notCii = rejection({
    format: 'cii',
    invoices: [{ ...EXAMPLE_PROFILE_REQUESTS.peppol, invoice_number: 'P-1' }],
  });
  assert.deepEqual(
    notCii.issues?.map((issue) => [issue.path, issue.code]),
    [['invoices[0].profile', 'profile_format']],
  );
  const broken = rejection({
    format: 'ubl',
    invoices: [EXAMPLE_EINVOICE, { ...EXAMPLE_EINVOICE, invoice_number: 'X-1', profile: 'xrechnung' }],
  });
  assert.equal(broken.code, 'einvoice_rules_failed');
  assert.ok(
    broken.issues!.length > 0 && broken.issues!.every((issue) => issue.path.startsWith('invoices[1]')),
    JSON.stringify(broken.issues),
  );
  // A plain PDF has no profile.
  assert.equal(
    rejection({ invoices: [{ ...EXAMPLE_INVOICE, profile: 'fr' }] }).issues?.[0]?.path,
    'invoices[0].profile',
  );
});
