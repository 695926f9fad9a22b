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
