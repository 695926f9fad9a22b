import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { eInvoiceXml, type XmlSyntax } from '../../src/einvoice/eInvoiceDocuments.js';
import { checkEInvoice, type ProfiledInvoice } from '../../src/einvoice/prepareEInvoice.js';
import { PROFILES, type EInvoiceProfile } from '../../src/einvoice/profiles.js';
import { buildTotalsReport } from '../../src/invoice/totalsReport.js';
import { nationalArbitrary } from '../fixtures/nationalArbitrary.js';
import { NATIONAL_EXAMPLES } from '../fixtures/nationalExamples.js';
import { oracleMissing, runCheckXml, type OracleKind } from '../support/einvoiceOracle.js';

/**
 * The national corpus: the written examples and 210 generated invoices per profile, each in every
 * syntax of its profile, through the official rules (check-xml's national kinds: CEN + KoSIT,
 * OpenPEPPOL or FNFE). Every one passes the service's own checks, must report 0 fatal, and carries
 * exactly the amounts validate answers.
 */
const GENERATED = 210;
const NATIONAL = ['xrechnung', 'peppol', 'fr'] as const;
const KINDS: [OracleKind, Exclude<EInvoiceProfile, 'en16931'>, XmlSyntax][] = [
  ['xrechnung-cii', 'xrechnung', 'cii'],
  ['xrechnung-ubl', 'xrechnung', 'ubl'],
  ['peppol-ubl', 'peppol', 'ubl'],
  ['fr-cii', 'fr', 'cii'],
  ['fr-ubl', 'fr', 'ubl'],
];

const accepted = (name: string, body: unknown): [string, ProfiledInvoice] => {
  const { issues, ...profiled } = checkEInvoice(JSON.parse(JSON.stringify(body)));
  assert.deepEqual(issues, [], `${name} passes the service's own checks`);
  return [name, profiled];
};
const corpus: Record<string, [string, ProfiledInvoice][]> = Object.fromEntries(
  NATIONAL.map((profile) => [
    profile,
    [
      ...Object.entries(NATIONAL_EXAMPLES)
        .filter(([, body]) => body.profile === profile)
        .map(([name, body]) => accepted(name, body)),
      ...fc
        .sample(nationalArbitrary(profile), { numRuns: GENERATED, seed: 27 })
        .map((body, at) => accepted(`generated-${at}`, { ...body, invoice_number: `GEN-${at}` })),
    ],
  ]),
);

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'einvoice-national-'));
  for (const [kind, profile, syntax] of KINDS) {
    mkdirSync(join(dir, kind));
    for (const [name, { prepared }] of corpus[profile]!)
      writeFileSync(join(dir, kind, `${name}.xml`), eInvoiceXml(prepared, syntax, profile));
  }
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('the national corpus covers the cases of each profile', () => {
  for (const profile of NATIONAL) {
    const invoices = corpus[profile]!.map(([, { prepared }]) => prepared);
    assert.ok(invoices.length >= 200 + 4, profile);
    assert.ok(
      invoices.some((prepared) => prepared.invoice.document_type === 'credit_note'),
      `${profile}: a credit note`,
    );
    assert.ok(
      invoices.some((prepared) => prepared.totals.groups.length >= 2),
      `${profile}: mixed rates`,
    );
    assert.ok(
      invoices.some((prepared) => prepared.totals.groups.some((group) => group.category === 'AE')),
      `${profile}: reverse charge`,
    );
  }
  const leitweg = corpus.xrechnung!.find(([name]) => name === 'xrechnung-public-leitweg')![1].prepared.invoice;
  assert.equal(leitweg.buyer.electronic_address?.scheme, '0204');
  assert.equal(
    corpus.peppol!.find(([name]) => name === 'peppol-belgian-b2b')![1].prepared.invoice.seller.electronic_address
      ?.scheme,
    '0208',
  );
  const french = corpus.fr!.find(([name]) => name === 'fr-b2b-siren')![1].prepared.invoice;
  assert.equal(french.seller.legal_registration?.scheme, '0002');
  assert.deepEqual(french.legal_notes && Object.keys(french.legal_notes), [
    'late_fee_annual_percent',
    'discount_percent',
    'discount_days',
  ]);
  // Category O, which the seller's legal registration makes possible (BR-CO-26 without a VAT id).
  assert.ok(corpus.fr!.some(([, { prepared }]) => prepared.totals.groups.some((group) => group.category === 'O')));
});

test('each profile writes its own specification and business-process identifiers', () => {
  for (const [, profile, syntax] of KINDS) {
    const [, { prepared }] = corpus[profile]![0]!;
    const xml = eInvoiceXml(prepared, syntax, profile).toString('utf8');
    assert.ok(xml.includes(`>${PROFILES[profile].specification}<`), `${profile} ${syntax}: BT-24`);
    const process = prepared.invoice.business_process ?? PROFILES[profile].defaultBusinessProcess!;
    assert.ok(
      xml.includes(syntax === 'ubl' ? `<cbc:ProfileID>${process}</cbc:ProfileID>` : `<ram:ID>${process}</ram:ID>`),
      `${profile} ${syntax}: BT-23`,
    );
  }
});

describe('the official national rules (check-xml)', { skip: oracleMissing }, () => {
  for (const [kind, profile] of KINDS) {
    test(`${kind}: 0 fatal over ${corpus[profile]!.length} files`, { timeout: 900_000 }, () => {
      const result = runCheckXml(kind, join(dir, kind));
      assert.equal(result.files, corpus[profile]!.length, result.output.slice(-2000));
      assert.equal(result.fatal, 0, result.output.slice(-4000));
      assert.equal(result.status, 0, result.output.slice(-2000));
    });
  }
});

/** Every element `name` of the XML with its text, in document order. */
const values = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<${name}(?: [^>]*)?>([^<]*)</${name}>`, 'g'))].map((match) => match[1]!);

describe('every XML amount is the one validate answers', () => {
  for (const [kind, profile, syntax] of KINDS) {
    test(kind, () => {
      for (const [name, { prepared }] of corpus[profile]!) {
        const xml = eInvoiceXml(prepared, syntax, profile).toString('utf8');
        const report = buildTotalsReport(prepared);
        const lines = report.lines.map((line) => line.amount.decimal);
        const groups = report.tax_groups.map((group) => [group.taxable.decimal, group.tax.decimal]);
        if (syntax === 'cii') {
          assert.deepEqual(values(xml, 'ram:LineTotalAmount'), [...lines, report.subtotal.decimal], name);
          assert.deepEqual(
            values(xml, 'ram:BasisAmount').map((basis, at) => [basis, values(xml, 'ram:CalculatedAmount')[at]]),
            groups,
            name,
          );
          assert.deepEqual(values(xml, 'ram:TaxBasisTotalAmount'), [report.taxable.decimal], name);
          assert.deepEqual(values(xml, 'ram:TaxTotalAmount'), [report.tax.decimal], name);
          assert.deepEqual(values(xml, 'ram:GrandTotalAmount'), [report.total.decimal], name);
          assert.deepEqual(values(xml, 'ram:DuePayableAmount'), [report.balance_due.decimal], name);
        } else {
          assert.deepEqual(values(xml, 'cbc:LineExtensionAmount'), [report.subtotal.decimal, ...lines], name);
          assert.deepEqual(
            values(xml, 'cbc:TaxableAmount').map((basis, at) => [basis, values(xml, 'cbc:TaxAmount').slice(1)[at]]),
            groups,
            name,
          );
          assert.equal(values(xml, 'cbc:TaxAmount')[0], report.tax.decimal, name);
          assert.deepEqual(values(xml, 'cbc:TaxExclusiveAmount'), [report.taxable.decimal], name);
          assert.deepEqual(values(xml, 'cbc:TaxInclusiveAmount'), [report.total.decimal], name);
          assert.deepEqual(values(xml, 'cbc:PayableAmount'), [report.balance_due.decimal], name);
        }
      }
    });
  }
});
