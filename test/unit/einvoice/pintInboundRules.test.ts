import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { inspectEInvoice, type InspectAnswer } from '../../../src/einvoice/inbound/inspect.js';
import { EINVOICE_ORACLE } from '../../support/einvoiceOracle.js';
import { needsShared } from '../../support/sharedFolder.js';

/**
 * A received Peppol PINT document is checked under its own profile's rules as the official
 * validator judges it: check-xml pint-* reports 0 fatal on all 109 official examples, so inspect
 * reports no rule finding on any; the same examples with one fact broken get the id check-xml reports
 * for them (each broken file was run through check-xml pint-* once: 1 fatal with that id, or 2 for BR-105-GST-SG).
 */
const pintExamples = join(EINVOICE_ORACLE, 'pint');
const skip = needsShared('pint');
const JURISDICTIONS = ['eu', 'aunz', 'sg', 'jp', 'my', 'ae'] as const;

const example = (jurisdiction: string, file: string) =>
  readFileSync(join(pintExamples, jurisdiction, 'examples', file), 'utf8');
const inspectText = (xml: string): InspectAnswer => inspectEInvoice(new Uint8Array(Buffer.from(xml)), 'xml');
const findings = (answer: InspectAnswer) => answer.rules.issues.map((issue) => `${issue.code} ${issue.path}`);

/** Replaces text that must be in the example, so a changed example fails here rather than testing nothing. */
function tampered(xml: string, from: string | RegExp, to: string): string {
  const changed = xml.replace(from, to);
  assert.notEqual(changed, xml, `the example contains ${String(from)}`);
  return changed;
}

test('the 109 official PINT examples (0 fatal in check-xml) get no rule finding from inspect', { skip }, () => {
  let read = 0;
  const found: string[] = [];
  for (const jurisdiction of JURISDICTIONS) {
    for (const file of readdirSync(join(pintExamples, jurisdiction, 'examples'))) {
      const answer = inspectText(example(jurisdiction, file));
      assert.deepEqual(answer.rules.checked.length, 2, `${file} is checked under EN 16931 and its PINT profile`);
      found.push(...findings(answer).map((finding) => `${jurisdiction}/${file}: ${finding}`));
      read += 1;
    }
  }
  assert.equal(read, 109);
  assert.deepEqual(found, []);
});

test('the JSON invoice carries the PINT fields the document states, so a re-issue writes them again', { skip }, () => {
  const uae = inspectText(example('ae', 'Doc-level-allowance-E-category.xml')).invoice;
  assert.equal(uae.seller.tax_registration_number, '198765432102003');
  assert.equal(uae.seller.tax_id, undefined, 'the TRN is not written a second time as BT-32');
  assert.equal(uae.seller.country_subdivision, 'DXB');
  assert.equal(uae.buyer.country_subdivision, 'AUH');
  assert.equal(uae.seller.legal_registration?.issuer, 'Trade License issuing Authority');
  assert.equal(uae.tax_exemption_code, 'VATEX-AE-EDU');

  const singapore = inspectText(example('sg', 'PINT-SG INV example 16 - GST in SGD.xml'));
  assert.equal(singapore.invoice.seller.tax_registration_number, 'M2-1234567-K');
  // BT-110 2374.05 EUR and BT-111 3700.65 SGD: the shortest rate that gives BT-111 back.
  assert.deepEqual(singapore.invoice.tax_currency, { code: 'SGD', exchange_rate: 1.55879 });

  const japan = inspectText(example('jp', 'Japan PINT Invoice UBL Example2-TaxAcctCur.xml')).invoice;
  assert.deepEqual(japan.tax_currency, { code: 'JPY', exchange_rate: 130 });
  assert.deepEqual(japan.invoicing_period, { start: '2023-10-18', end: '2023-10-18' });
});

test('an official example with one fact broken gets the official rule that breaks', { skip }, () => {
  const uae = example('ae', 'Standard invoice Mandatory fields.xml');
  const jpForeignSeller = example('jp', 'Japan PINT Invoice UBL Example2-TaxAcctCur.xml');
  const cases: [string, string, string][] = [
    [
      'UAE seller without TRN',
      tampered(
        uae,
        /<cac:PartyTaxScheme>\s*<cbc:CompanyID>135790246801003<\/cbc:CompanyID>[\s\S]*?<\/cac:PartyTaxScheme>/,
        '',
      ),
      'ibr-134-ae seller.tax_registration_number',
    ],
    [
      'UAE seller TRN of the wrong shape',
      tampered(uae, '<cbc:CompanyID>135790246801003</cbc:CompanyID>', '<cbc:CompanyID>135790246801</cbc:CompanyID>'),
      'ibr-132-ae seller.tax_registration_number',
    ],
    [
      'UAE seller without emirate',
      tampered(uae, /<cbc:CountrySubentity>[A-Z]+<\/cbc:CountrySubentity>/, ''),
      'ibr-143-ae seller.country_subdivision',
    ],
    [
      'UAE all-exempt tax invoice (type 380 instead of 480)',
      tampered(
        example('ae', 'Doc-level-allowance-E-category.xml'),
        '<cbc:InvoiceTypeCode>480</cbc:InvoiceTypeCode>',
        '<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>',
      ),
      'ibr-151-ae line_items',
    ],
    [
      'Singapore standard-rated invoice without GST number',
      tampered(
        example('sg', 'PINT-SG INV example 03 - Allowances and Charges.xml'),
        /<cac:PartyTaxScheme>\s*<cbc:CompanyID>M2-1234567-K<\/cbc:CompanyID>[\s\S]*?<\/cac:PartyTaxScheme>/,
        '',
      ),
      'BR-105-GST-SG seller.tax_registration_number',
    ],
    [
      "Japan's non-tax-registered invoice naming a seller tax identifier",
      tampered(
        example('jp', 'JP BIS Invoice for Non-tax Registered Businesses UBL Example1-minimum.xml'),
        '</cac:PostalAddress>',
        '</cac:PostalAddress><cac:PartyTaxScheme><cbc:CompanyID>T1234567890123</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>',
      ),
      'aligned-ibr-jp-04-ntr seller.tax_registration_number',
    ],
    [
      // check-xml pint-my: aligned-ibrp-cl-01-my (and aligned-ibrp-hvg-08, as the HVG breakdown loses its line).
      'Malaysian line with a tax category code the jurisdiction does not have',
      tampered(
        example('my', 'Invoice-Sample-TTX_1.3.0.xml'),
        /(<cac:ClassifiedTaxCategory>\s*<cbc:ID>)HVG(<\/cbc:ID>)/,
        '$1XX$2',
      ),
      'aligned-ibrp-cl-01-my line_items[0].tax_category',
    ],
    [
      // A seller in GB with a Japanese registration: the official rule reads it whatever the address.
      'Japanese registration number of the wrong shape, period after 2023-10-01',
      tampered(
        jpForeignSeller,
        '<cbc:CompanyID>T1234567890123</cbc:CompanyID>',
        '<cbc:CompanyID>T12345</cbc:CompanyID>',
      ),
      'aligned-ibr-jp-01 seller.tax_registration_number',
    ],
    [
      'PINT EU exempt breakdown without exemption reason code',
      tampered(
        example('eu', 'vat-category-E.xml'),
        /<cbc:TaxExemptionReasonCode>VATEX-EU-F<\/cbc:TaxExemptionReasonCode>/g,
        '',
      ),
      'BR-E-10 tax_exemption_reason',
    ],
  ];
  // Before the qualified-invoice system (periods before 2023-10-01) the shape is not required (check-xml: 0 fatal).
  const before = tampered(
    tampered(jpForeignSeller, '<cbc:CompanyID>T1234567890123</cbc:CompanyID>', '<cbc:CompanyID>T12345</cbc:CompanyID>'),
    /2023-10-18/g,
    '2023-09-18',
  );
  assert.deepEqual(findings(inspectText(before)), []);
  for (const [name, xml, finding] of cases) {
    assert.ok(
      findings(inspectText(xml)).includes(finding),
      `${name}: ${finding} in ${findings(inspectText(xml)).join(', ')}`,
    );
  }
});
