import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EXAMPLE_PROFILE_REQUESTS } from '../../../src/einvoice/example.js';
import { eInvoiceXml } from '../../../src/einvoice/eInvoiceDocuments.js';
import { checkEInvoice, prepareProfiledEInvoice } from '../../../src/einvoice/prepareEInvoice.js';
import { InputRejected } from '../../../src/errors.js';

/** Credit notes under PINT AE (reason code BTAE-03) and PINT JP (an invoice 380 with negated amounts). */
const codesOf = (body: unknown) => checkEInvoice(body).issues.map((issue) => [issue.code, issue.path]);
const uaeCreditNote = (extra: Record<string, unknown>) => ({
  ...structuredClone(EXAMPLE_PROFILE_REQUESTS['pint-ae']),
  document_type: 'credit_note',
  preceding_invoice: { number: 'AE-2026-0041', issue_date: '2026-10-01' },
  ...extra,
});
const ubl = (body: unknown) => {
  const { prepared, profile } = prepareProfiledEInvoice(body);
  return eInvoiceXml(prepared, 'ubl', profile).toString('utf8');
};

test('a UAE credit note without its reason code is refused by ibr-158-ae, naming the field', () => {
  assert.deepEqual(codesOf(uaeCreditNote({})), [['ibr-158-ae', 'credit_note_reason_code']]);
});

test('a UAE credit note reason other than VD needs the credited invoice; VD must not name one (ibr-055-ae)', () => {
  assert.deepEqual(codesOf(uaeCreditNote({ credit_note_reason_code: 'DL8.61.1.B', preceding_invoice: undefined })), [
    ['ibr-055-ae', 'preceding_invoice'],
  ]);
  assert.deepEqual(codesOf(uaeCreditNote({ credit_note_reason_code: 'VD' })), [['ibr-055-ae', 'preceding_invoice']]);
  assert.deepEqual(codesOf(uaeCreditNote({ credit_note_reason_code: 'VD', preceding_invoice: undefined })), []);
});

test('a reason code outside the UAE code list is refused by the schema at its path', () => {
  assert.throws(
    () => checkEInvoice(uaeCreditNote({ credit_note_reason_code: 'DL8.61.1.F' })),
    (error) =>
      error instanceof InputRejected &&
      (error.issues ?? []).some(
        (issue) => issue.path === 'credit_note_reason_code' && /DL8\.61\.1\.A/.test(issue.message),
      ),
  );
});

test('the UAE credit note writes BTAE-03 as DiscrepancyResponse between the period and the order reference', () => {
  const xml = ubl(uaeCreditNote({ credit_note_reason_code: 'DL8.61.1.D' }));
  assert.match(xml, /<cbc:CreditNoteTypeCode>381<\/cbc:CreditNoteTypeCode>/);
  assert.match(
    xml,
    /<cac:DiscrepancyResponse>\s*<cbc:ResponseCode>DL8\.61\.1\.D<\/cbc:ResponseCode>\s*<\/cac:DiscrepancyResponse>\s*<cac:OrderReference>/,
  );
  // An invoice never carries it, and other profiles do not write the field.
  assert.doesNotMatch(
    ubl({ ...EXAMPLE_PROFILE_REQUESTS['pint-ae'], credit_note_reason_code: 'VD' }),
    /DiscrepancyResponse/,
  );
  const singapore = {
    ...structuredClone(EXAMPLE_PROFILE_REQUESTS['pint-sg']),
    document_type: 'credit_note',
    credit_note_reason_code: 'VD',
  };
  assert.doesNotMatch(ubl(singapore), /DiscrepancyResponse/);
});

test('a Japanese credit note is an invoice 380 with negative quantities and amounts, prices positive', () => {
  const japan = structuredClone(EXAMPLE_PROFILE_REQUESTS['pint-jp']);
  const body = {
    ...japan,
    document_type: 'credit_note',
    preceding_invoice: { number: 'JP-2026-0041', issue_date: '2026-10-01' },
    line_items: [
      { description: 'Returned unit', quantity: 2, unit_price: 50000, unit: 'C62', tax_rate: 10 },
      { description: 'Sample (free)', quantity: 1, unit_price: 0, unit: 'C62', tax_rate: 10 },
    ],
  };
  assert.deepEqual(codesOf(body), []);
  const xml = ubl(body);
  assert.match(xml, /^<\?xml[^>]*>\s*<Invoice /);
  assert.match(xml, /<cbc:InvoiceTypeCode>380<\/cbc:InvoiceTypeCode>/);
  assert.match(xml, /<cac:BillingReference>\s*<cac:InvoiceDocumentReference>\s*<cbc:ID>JP-2026-0041</);
  const amounts = (name: string) =>
    [...xml.matchAll(new RegExp(`<cbc:${name}[^>]*>([^<]*)<`, 'g'))].map((match) => match[1]);
  assert.deepEqual(amounts('InvoicedQuantity'), ['-2', '-1']);
  assert.deepEqual(amounts('LineExtensionAmount'), ['-100000', '-100000', '0']);
  assert.deepEqual(amounts('PriceAmount'), ['50000', '0']);
  assert.deepEqual(amounts('TaxAmount'), ['-10000', '-10000']);
  assert.deepEqual(amounts('PayableAmount'), ['-110000']);
  // The same body under Singapore's profile stays a CreditNote with positive amounts.
  const singapore = { ...body, ...structuredClone(EXAMPLE_PROFILE_REQUESTS['pint-sg']), document_type: 'credit_note' };
  assert.match(ubl(singapore), /<CreditNote [\s\S]*<cbc:PayableAmount currencyID="SGD">[0-9]/);
});
