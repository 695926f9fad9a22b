import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toEInvoiceDocument } from '../../../src/einvoice/document.js';
import { EXAMPLE_PROFILE_REQUESTS } from '../../../src/einvoice/example.js';
import { STATUTORY_NOTES } from '../../../src/einvoice/legalNotes.js';
import { checkEInvoice } from '../../../src/einvoice/prepareEInvoice.js';
import { PROFILES } from '../../../src/einvoice/profiles.js';

/** The national rules one by one: a change to a valid example, the rule ids and paths it gives. */
const { xrechnung, peppol, fr } = EXAMPLE_PROFILE_REQUESTS;
const codes = (body: unknown) =>
  checkEInvoice(JSON.parse(JSON.stringify(body))).issues.map((issue) => [issue.code, issue.path]);

const CASES: [string, unknown, [string, string][]][] = [
  ['the examples pass', xrechnung, []],
  [
    'XRechnung: no IBAN, no seller city',
    { ...xrechnung, payment: undefined, seller: { ...xrechnung.seller, city: undefined } },
    [
      ['BR-DE-1', 'payment.iban'],
      ['BR-DE-3', 'seller.city'],
    ],
  ],
  [
    'XRechnung: ship_to without post code',
    { ...xrechnung, ship_to: { name: 'Lager', city: 'Berlin', country: 'DE' } },
    [['BR-DE-11', 'ship_to.postal_code']],
  ],
  [
    'XRechnung: a category O line has no rate (and O excludes VAT ids)',
    {
      ...xrechnung,
      seller: { ...xrechnung.seller, vat_id: undefined, legal_registration: { id: 'HRB 12345' } },
      tax_rate: undefined,
      line_items: [{ description: 'Spende', quantity: 1, unit_price: 50, tax_category: 'O' }],
      tax_exemption_reason: 'Nicht steuerbar',
    },
    [['BR-DE-14', 'line_items[0].tax_category']],
  ],
  [
    'Peppol: an e-mail endpoint, legal notes beside a note, no references',
    {
      ...peppol,
      purchase_order: undefined,
      legal_notes: {},
      seller: { ...peppol.seller, electronic_address: { scheme: 'EM', id: 'a@b.example' } },
    },
    [
      ['PEPPOL-EN16931-CL008', 'seller.electronic_address.scheme'],
      ['PEPPOL-EN16931-R003', 'buyer_reference'],
      ['PEPPOL-EN16931-R002', 'legal_notes'],
    ],
  ],
  [
    'Peppol: a JPY line whose product has decimals',
    { ...peppol, currency: 'JPY', line_items: [{ description: 'x', quantity: 1.5, unit_price: 101, tax_rate: 21 }] },
    [['PEPPOL-EN16931-R120', 'line_items[0].quantity']],
  ],
  [
    "Peppol: a business process that is not Peppol's",
    { ...peppol, business_process: 'S1' },
    [['PEPPOL-EN16931-R007', 'business_process']],
  ],
  [
    'Peppol: billing 05, which BIS 3.0.21 does not approve',
    { ...peppol, business_process: 'urn:fdc:peppol.eu:2017:poacc:billing:05:1.0' },
    [['PEPPOL-EN16931-R007', 'business_process']],
  ],
  [
    'Peppol: billing with response (profile 02)',
    { ...peppol, business_process: 'urn:peppol:bis:billing_with_response' },
    [],
  ],
  [
    'Peppol: a Swedish seller is refused (SE-R not checked here)',
    { ...peppol, seller: { ...peppol.seller, country: 'SE' } },
    [['PEPPOL-national', 'seller.country']],
  ],
  [
    'Peppol: a Dutch seller needs KvK/OIN',
    { ...peppol, seller: { ...peppol.seller, country: 'NL' } },
    [['NL-R-003', 'seller.legal_registration']],
  ],
  [
    'Peppol: German seller and buyer need the German fields',
    {
      ...peppol,
      seller: { ...xrechnung.seller, electronic_address: { scheme: '9930', id: 'DE123456789' }, phone: undefined },
      buyer: { ...xrechnung.buyer, country: 'DE' },
    },
    [
      ['DE-R-006', 'seller.phone'],
      ['DE-R-015', 'buyer_reference'],
    ],
  ],
  [
    'France: a German VAT rate, a long invoice number',
    {
      ...fr,
      invoice_number: 'F 2026 0042',
      line_items: [{ description: 'x', quantity: 1, unit_price: 10, tax_rate: 19 }],
    },
    [
      ['BR-FR-01', 'invoice_number'],
      ['BR-FR-16', 'line_items[0].tax_rate'],
    ],
  ],
  [
    "France: a credit note without the credited invoice's date",
    { ...fr, document_type: 'credit_note', preceding_invoice: { number: 'F-1' } },
    [['BR-FR-CO-05', 'preceding_invoice.issue_date']],
  ],
  ['France: B2 (already paid) with an amount due', { ...fr, business_process: 'B2' }, [['BR-FR-CO-09', 'amount_paid']]],
  ['France: self-billing B9 is not issued', { ...fr, business_process: 'B9' }, [['BR-FR-08', 'business_process']]],
  [
    'France: a quantity with 5 decimals',
    { ...fr, line_items: [{ description: 'x', quantity: 1.00001, unit_price: 10, tax_rate: 20 }] },
    [['BR-FR-DEC-02', 'line_items[0].quantity']],
  ],
];

for (const [name, body, expected] of CASES) {
  test(name, () => assert.deepEqual(codes(body), expected));
}

test('the French legal notes: statutory wording, or written from the late-fee rate and payment terms', () => {
  const notesOf = (legal_notes: unknown) =>
    toEInvoiceDocument(checkEInvoice({ ...fr, legal_notes }).prepared, PROFILES.fr).notes;
  assert.deepEqual(notesOf({}), [
    { subjectCode: 'PMT', content: STATUTORY_NOTES.PMT },
    { subjectCode: 'PMD', content: STATUTORY_NOTES.PMD },
    { subjectCode: 'AAB', content: STATUTORY_NOTES.AAB },
  ]);
  const derived = notesOf({ late_fee_annual_percent: 10.5, discount_percent: 2, discount_days: 10 });
  assert.match(derived[1]!.content, /^Pénalités de retard : 10,5 % par an/);
  assert.match(derived[2]!.content, /^Escompte de 2 % pour paiement sous 10 jours/);
  assert.equal(notesOf({ early_payment_discount: 'Aucun escompte.' })[2]!.content, 'Aucun escompte.');
  assert.throws(
    () => checkEInvoice({ ...fr, legal_notes: { discount_percent: 2 } }),
    /legal_notes.discount_days: must be given together with discount_percent/,
  );
});
