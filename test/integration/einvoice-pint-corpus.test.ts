import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { eInvoiceXml } from '../../src/einvoice/eInvoiceDocuments.js';
import { inspectEInvoice } from '../../src/einvoice/inbound/inspect.js';
import { buildEInvoiceValidation } from '../../src/einvoice/validationReport.js';
import { checkEInvoice, type ProfiledInvoice } from '../../src/einvoice/prepareEInvoice.js';
import { PROFILES } from '../../src/einvoice/profiles.js';
import { buildTotalsReport } from '../../src/invoice/totalsReport.js';
import { PINT_CORPUS_PROFILES, pintArbitrary, pintExamples, type PintCorpusProfile } from '../fixtures/pintExamples.js';
import { oracleMissing, runCheckXml, type OracleKind } from '../support/einvoiceOracle.js';
import { pintExamplesMissing, reissuedExamples, reissuedFileName } from '../fixtures/pintReissued.js';

/**
 * The Peppol PINT and Croatian corpus: per profile the written cases (standard, credit note,
 * foreign currency with tax currency, mixed rates, exempt or zero rated) and 210 generated invoices,
 * through the official rules (check-xml pint-* and hr-ubl), with the official PINT examples this
 * service re-issues (test/fixtures/pintReissued.ts). Every one passes the service's own checks,
 * must report 0 fatal, and carries exactly the amounts validate answers.
 */
const GENERATED = 210;
const KIND: Record<PintCorpusProfile, OracleKind> = {
  'pint-eu': 'pint-eu',
  'pint-aunz': 'pint-aunz',
  'pint-sg': 'pint-sg',
  'pint-jp': 'pint-jp',
  'pint-my': 'pint-my',
  'pint-ae': 'pint-ae',
  hr: 'hr-ubl',
};

const accepted = (name: string, body: unknown): [string, ProfiledInvoice] => {
  const { issues, ...profiled } = checkEInvoice(JSON.parse(JSON.stringify(body)));
  assert.deepEqual(issues, [], `${name} passes the service's own checks`);
  return [name, profiled];
};
const corpus = Object.fromEntries(
  PINT_CORPUS_PROFILES.map((profile) => [
    profile,
    [
      ...Object.entries(pintExamples(profile)).map(([name, body]) => accepted(name, body)),
      ...fc
        .sample(pintArbitrary(profile), { numRuns: GENERATED, seed: 40 })
        .map((body, at) => accepted(`generated-${at}`, { ...body, invoice_number: `GEN-${at}` })),
    ],
  ]),
) as Record<PintCorpusProfile, [string, ProfiledInvoice][]>;

const xmlOf = ({ prepared, profile }: ProfiledInvoice) => eInvoiceXml(prepared, 'ubl', profile).toString('utf8');

/**
 * The official PINT examples this service re-issues (pint-reissue.test.ts checks their amounts), beside
 * the corpus in their profile's folder: one check-xml run per kind checks both.
 */
const reissued = pintExamplesMissing ? [] : reissuedExamples();
const reissuedOf = (profile: PintCorpusProfile) => reissued.filter(({ answer }) => answer.reissue.profile === profile);

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'einvoice-pint-'));
  for (const profile of PINT_CORPUS_PROFILES) {
    mkdirSync(join(dir, profile));
    for (const [name, profiled] of corpus[profile]) writeFileSync(join(dir, profile, `${name}.xml`), xmlOf(profiled));
    for (const { name, xml } of reissuedOf(profile)) writeFileSync(join(dir, profile, reissuedFileName(name)), xml);
  }
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('the corpus covers the cases of each profile', () => {
  for (const profile of PINT_CORPUS_PROFILES) {
    const invoices = corpus[profile].map(([, { prepared }]) => prepared);
    assert.ok(invoices.length >= 200 + 4, profile);
    assert.ok(
      invoices.some((prepared) => prepared.totals.groups.length >= 2),
      `${profile}: mixed rates`,
    );
    assert.ok(
      invoices.some((prepared) => prepared.totals.groups.some((group) => group.category !== 'S')),
      `${profile}: exempt or zero rated`,
    );
    assert.ok(
      invoices.some((prepared) => prepared.invoice.document_type === 'credit_note'),
      `${profile}: credit note`,
    );
    if (profile !== 'pint-aunz' && profile !== 'hr')
      assert.ok(
        invoices.some((prepared) => prepared.invoice.tax_currency !== undefined),
        `${profile}: tax currency`,
      );
  }
});

test('each profile writes its BT-24, business process and tax scheme', () => {
  for (const profile of PINT_CORPUS_PROFILES) {
    const [, profiled] = corpus[profile][0]!;
    const xml = xmlOf(profiled);
    assert.ok(xml.includes(`<cbc:CustomizationID>${PROFILES[profile].specification}</cbc:CustomizationID>`), profile);
    assert.ok(xml.includes(`<cbc:ProfileID>${PROFILES[profile].defaultBusinessProcess}</cbc:ProfileID>`), profile);
  }
  assert.match(
    xmlOf(corpus['pint-sg'][0]![1]),
    /<cbc:ID>SR<\/cbc:ID>\s*<cbc:Percent>9<\/cbc:Percent>\s*<cac:TaxScheme>\s*<cbc:ID>GST</,
  );
  assert.match(xmlOf(corpus['pint-jp'][0]![1]), /<cbc:ID>AA<\/cbc:ID>\s*<cbc:Percent>8<\/cbc:Percent>/);
  assert.match(xmlOf(corpus.hr[0]![1]), /<cbc:IssueTime>10:15:00<\/cbc:IssueTime>/);
});

describe('the official rules (check-xml pint-*, hr-ubl)', { skip: oracleMissing }, () => {
  test(
    'the official examples re-issued in every PINT profile are among the files',
    { skip: pintExamplesMissing },
    () => {
      assert.ok(reissued.length >= 50, `${reissued.length} re-issued`);
      for (const profile of PINT_CORPUS_PROFILES.filter((each) => each !== 'hr'))
        assert.ok(reissuedOf(profile).length > 0, profile);
    },
  );
  for (const profile of PINT_CORPUS_PROFILES) {
    const files = corpus[profile].length + reissuedOf(profile).length;
    test(
      `${KIND[profile]}: 0 fatal over ${files} files (the corpus and the re-issued examples)`,
      { timeout: 900_000 },
      () => {
        const result = runCheckXml(KIND[profile], join(dir, profile));
        assert.equal(result.files, files, result.output.slice(-2000));
        assert.equal(result.fatal, 0, result.output.slice(-4000));
        assert.equal(result.status, 0, result.output.slice(-2000));
      },
    );
  }
});

/** Every element `name` of the XML with its text, in document order (attributes allowed). */
const values = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<${name}(?: [^>]*)?>([^<]*)</${name}>`, 'g'))].map((match) => match[1]!);

/**
 * Validate's amount as the XML states it: PINT JP writes a credit note as an invoice with negative
 * amounts (src/einvoice/formats/pint/negatedInvoice.ts), every other profile as validate answers it.
 */
const signedFor = ({ prepared, profile }: ProfiledInvoice) => {
  const negated = profile === 'pint-jp' && prepared.invoice.document_type === 'credit_note';
  return (amount: string) => (!negated || /^[0.]*$/.test(amount) ? amount : `-${amount}`);
};

describe('every XML amount is the one validate answers', () => {
  for (const profile of PINT_CORPUS_PROFILES) {
    test(profile, () => {
      for (const [name, profiled] of corpus[profile]) {
        const xml = xmlOf(profiled);
        const report = buildTotalsReport(profiled.prepared);
        const signed = signedFor(profiled);
        const currency = profiled.prepared.invoice.currency;
        const inInvoiceCurrency = (element: string) =>
          [...xml.matchAll(new RegExp(`<${element} currencyID="${currency}">([^<]*)</${element}>`, 'g'))].map(
            (match) => match[1]!,
          );
        assert.deepEqual(
          values(xml, 'cbc:TaxableAmount'),
          report.tax_groups.map((group) => signed(group.taxable.decimal)),
          name,
        );
        assert.deepEqual(
          inInvoiceCurrency('cbc:TaxAmount').slice(0, 1 + report.tax_groups.length),
          [signed(report.tax.decimal), ...report.tax_groups.map((group) => signed(group.tax.decimal))],
          name,
        );
        assert.deepEqual(values(xml, 'cbc:TaxExclusiveAmount'), [signed(report.taxable.decimal)], name);
        assert.deepEqual(values(xml, 'cbc:TaxInclusiveAmount'), [signed(report.total.decimal)], name);
        assert.deepEqual(values(xml, 'cbc:PayableAmount'), [signed(report.balance_due.decimal)], name);
        const lines = inInvoiceCurrency('cbc:LineExtensionAmount');
        assert.deepEqual(
          lines,
          [signed(report.subtotal.decimal), ...report.lines.map((line) => signed(line.amount.decimal))],
          name,
        );
        const taxCurrency = profiled.prepared.invoice.tax_currency;
        if (taxCurrency) {
          const expected = buildEInvoiceValidation(profiled.prepared, [], profiled.profile).tax_currency?.tax;
          assert.deepEqual(
            [...xml.matchAll(new RegExp(`<cbc:TaxAmount currencyID="${taxCurrency.code}">([^<]*)<`, 'g'))].map(
              (m) => m[1],
            ),
            [expected === undefined ? undefined : signed(expected)],
            `${name}: BT-111`,
          );
        }
      }
    });
  }
});

describe('what this service writes, inspect reads back under its profile', () => {
  for (const profile of PINT_CORPUS_PROFILES) {
    test(`${profile}: no finding, no difference, and re-issued the same amounts (PINT JP's return invoice as a credit note)`, () => {
      for (const [name, profiled] of corpus[profile]) {
        const answer = inspectEInvoice(eInvoiceXml(profiled.prepared, 'ubl', profile), 'xml');
        assert.equal(answer.reissue.profile, profile, name);
        assert.deepEqual(answer.rules.issues, [], name);
        assert.deepEqual(answer.totals.differences, [], name);
        assert.deepEqual(answer.reissue.issues, [], name);
        const again = checkEInvoice({ ...answer.invoice, profile }).prepared.totals;
        const { totals } = profiled.prepared;
        assert.deepEqual(
          [again.tax, again.total, again.balanceDue],
          [totals.tax, totals.total, totals.balanceDue],
          name,
        );
      }
    });
  }
});
