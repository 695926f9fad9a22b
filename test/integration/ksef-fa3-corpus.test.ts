import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { fa3AmountFields } from '../../src/einvoice/formats/ksef/fa3Amounts.js';
import { writeFa3 } from '../../src/einvoice/formats/ksef/writeFa3.js';
import { checkEInvoice } from '../../src/einvoice/prepareEInvoice.js';
import type { KsefChecked, KsefInvoice } from '../../src/einvoice/formats/ksef/ksefRequest.js';
import { buildEInvoiceValidation } from '../../src/einvoice/validationReport.js';
import { ksefArbitrary } from '../fixtures/ksefArbitrary.js';
import { KSEF_EXAMPLES } from '../fixtures/ksefExamples.js';
import { oracleMissing, runCheckXml } from '../support/einvoiceOracle.js';

/**
 * The FA(3) corpus: the written examples and 210 generated requests, each accepted by validate's
 * checks (profile ksef), written as FA(3) and checked by the official schema (check-xml ksef-fa3:
 * 0 errors), with the amounts in the XML equal to validate's and to an independent recomputation
 * from the XML's own lines (P_13_x = Σ P_11 of the rate, P_14_x = Σ per rate round(net × rate),
 * P_14_xW = round(P_14_x × KursWaluty), P_15 = Σ P_13 + Σ P_14).
 */
const GENERATED = 210;
const CREATED = new Date('2026-03-02T10:00:00Z');

const accepted = (name: string, body: unknown): [string, KsefInvoice] => {
  const json = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  const { issues, profile, prepared, own } = checkEInvoice(json);
  assert.deepEqual(issues, [], `${name} passes the service's own checks`);
  assert.equal(profile, 'ksef');
  // The module's own check (what the writer takes) gives validate's amounts (format_amounts).
  const checked = { prepared, ...(own as KsefChecked) };
  const report = buildEInvoiceValidation(prepared, issues, profile, own);
  assert.deepEqual(
    fa3AmountFields(checked.amounts),
    (report as Record<string, unknown>).format_amounts,
    `${name}: validate answers the written amounts`,
  );
  return [name, checked];
};
const corpus: [string, KsefInvoice][] = [
  ...Object.entries(KSEF_EXAMPLES).map(([name, body]) => accepted(name, body)),
  ...fc
    .sample(ksefArbitrary(), { numRuns: GENERATED, seed: 39 })
    .map((body, at) => accepted(`generated-${at}`, { ...body, invoice_number: `GEN/${at}` })),
];

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ksef-fa3-'));
  for (const [name, checked] of corpus) writeFileSync(join(dir, `${name}.xml`), writeFa3(checked, CREATED));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('the corpus covers each invoice kind and the FA(3) cases', () => {
  const has = (what: string, predicate: (checked: KsefInvoice) => boolean) =>
    assert.ok(corpus.filter(([, checked]) => predicate(checked)).length >= 3, what);
  assert.ok(corpus.length >= 200 + Object.keys(KSEF_EXAMPLES).length);
  has('VAT', (c) => (c.ksef.kind ?? 'VAT') === 'VAT');
  has('KOR decrease', (c) => c.ksef.kind === 'KOR' && c.amounts.sign === -1n);
  has('KOR increase', (c) => c.ksef.kind === 'KOR' && c.amounts.sign === 1n);
  has('ZAL', (c) => c.ksef.kind === 'ZAL');
  has('several rates', (c) => c.amounts.slots.filter((slot) => slot.tax !== undefined).length >= 2);
  has('exemption', (c) => c.lineCodes.includes('zw'));
  has('reverse charge', (c) => c.lineCodes.includes('oo'));
  has('np II', (c) => c.lineCodes.includes('np II'));
  has('split payment', (c) => c.ksef.annotations?.split_payment === true);
  has('foreign currency', (c) => c.prepared.invoice.currency !== 'PLN');
});

const xmlValues = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, 'g'))].map((match) => match[1]!);
const cents = (text: string) => {
  const [whole, fraction = ''] = text.replace('-', '').split('.');
  return (text.startsWith('-') ? -1n : 1n) * BigInt(`${whole}${fraction.padEnd(2, '0')}`);
};
const roundDiv = (numerator: bigint, denominator: bigint) => {
  const negative = numerator < 0n;
  const absolute = negative ? -numerator : numerator;
  const quotient = (absolute * 2n + denominator) / (denominator * 2n);
  return negative ? -quotient : quotient;
};
const RATE_OF: Record<string, bigint> = { '23': 23n, '22': 22n, '8': 8n, '7': 7n, '5': 5n, '4': 4n, '3': 3n };
const SLOT_OF: Record<string, string> = { '23': '1', '22': '1', '8': '2', '7': '2', '5': '3', '4': '4', '3': '4' };

test('every amount in the XML is validate’s, and what the XML’s own lines give', () => {
  for (const [name, checked] of corpus) {
    const xml = readFileSync(join(dir, `${name}.xml`), 'utf8');
    const written = Object.fromEntries(
      [...xml.matchAll(/<(P_1[345][^>]*)>([^<]*)</g)].map((match) => [match[1]!, match[2]!]),
    );
    assert.deepEqual(written, fa3AmountFields(checked.amounts), `${name}: the XML's amounts are validate's`);
    const p15 = cents(written.P_15!);
    const sumOf = (prefix: string) =>
      Object.entries(written)
        .filter(([key]) => key.startsWith(prefix) && !key.endsWith('W'))
        .reduce((sum, [, value]) => sum + cents(value), 0n);
    assert.equal(sumOf('P_13_') + sumOf('P_14_'), p15, `${name}: P_15 = Σ P_13 + Σ P_14`);
    if (checked.ksef.kind === 'ZAL') continue;
    // cents() reads hundredths; a JPY amount is whole yen, rounded to the yen.
    const hundredths = 10n ** BigInt(2 - checked.amounts.digits);
    // Each rate's net from the lines, its VAT rounded once per rate (22 and 23 share P_14_1).
    const nets = new Map<string, bigint>();
    const codes = xmlValues(xml, 'P_12');
    xmlValues(xml, 'P_11').forEach((net, at) =>
      nets.set(codes[at] ?? '', (nets.get(codes[at] ?? '') ?? 0n) + cents(net)),
    );
    const tax = new Map<string, bigint>();
    for (const [code, net] of nets)
      if (RATE_OF[code])
        tax.set(
          SLOT_OF[code]!,
          (tax.get(SLOT_OF[code]!) ?? 0n) + roundDiv(net * RATE_OF[code]!, 100n * hundredths) * hundredths,
        );
    for (const [slot, value] of tax) assert.equal(cents(written[`P_14_${slot}`]!), value, `${name}: P_14_${slot}`);
    const rate = xmlValues(xml, 'KursWaluty')[0];
    if (rate !== undefined) {
      const [whole, fraction = ''] = rate.split('.');
      const scaled = BigInt(`${whole}${fraction}`);
      for (const [slot, value] of tax)
        assert.equal(
          cents(written[`P_14_${slot}W`]!),
          roundDiv(value * scaled, 10n ** BigInt(fraction.length)),
          `${name}: P_14_${slot}W`,
        );
    }
    assert.equal(
      p15,
      checked.prepared.totals.total * checked.amounts.sign * hundredths,
      `${name}: P_15 is validate's total`,
    );
  }
});

test('check-xml ksef-fa3: the official FA(3) schema accepts every file', { skip: oracleMissing }, () => {
  const result = runCheckXml('ksef-fa3', dir);
  assert.equal(result.files, corpus.length, result.output.slice(0, 2000));
  assert.equal(result.fatal, 0, result.output.slice(0, 4000));
  assert.equal(result.status, 0, result.output.slice(0, 2000));
});

test('check-xml ksef-fa3 refuses a tampered file (the oracle can fail)', { skip: oracleMissing }, () => {
  const tampered = mkdtempSync(join(tmpdir(), 'ksef-fa3-tampered-'));
  try {
    const xml = readFileSync(join(dir, 'ksef-vat-example.xml'), 'utf8').replace(/<P_15>(\d+)\.\d\d</, '<P_15>$1.123<');
    writeFileSync(join(tampered, 'tampered.xml'), xml);
    const result = runCheckXml('ksef-fa3', tampered);
    assert.notEqual(result.status, 0, result.output);
    assert.match(result.output, /xsd/);
  } finally {
    rmSync(tampered, { recursive: true, force: true });
  }
});
