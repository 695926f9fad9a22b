import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { inspectEInvoice } from '../../../src/einvoice/inbound/inspect.js';
import { EINVOICE_ORACLE } from '../../support/einvoiceOracle.js';
import { needsShared } from '../../support/sharedFolder.js';

/**
 * A received FA(3) judged by FA(3)'s own arithmetic (src/einvoice/formats/ksef/fa3Totals.ts): the
 * ministry's 25 examples (gross-priced lines, advances, settlements, simplified invoices, corrections)
 * show no difference, and a tampered amount still does.
 */
const EXAMPLES = join(EINVOICE_ORACLE, 'ksef', 'examples');
const examplesMissing = needsShared('ksef/examples');
const read = (name: string) => readFileSync(join(EXAMPLES, name), 'utf8');
const inspect = (xml: string) => inspectEInvoice(new Uint8Array(Buffer.from(xml, 'utf8')), 'xml');
const totalIssues = (answer: ReturnType<typeof inspect>) =>
  answer.rules.issues.filter((issue) => issue.code.startsWith('fa3_') || issue.code.startsWith('BR-'));

describe('FA(3) totals by its own rules', { skip: examplesMissing }, () => {
  test('the 25 ministry examples: no difference, P_15 as stated', () => {
    const files = readdirSync(EXAMPLES).filter((name) => name.endsWith('.xml'));
    assert.equal(files.length, 25);
    const kinds = new Set<string>();
    for (const name of files) {
      const answer = inspect(read(name));
      kinds.add(answer.type_code);
      assert.deepEqual(answer.totals.differences, [], name);
      assert.deepEqual(totalIssues(answer), [], name);
      // Every rule finding is one the document really has: example 7 names corrected KSeF numbers
      // whose checksum (CRC-8 of the number) fails.
      assert.deepEqual(
        answer.rules.issues.map((issue) => issue.code),
        name === 'FA_3_Przykład_7.xml' ? ['ksef_number_checksum'] : [],
        name,
      );
      const p15 = /<P_15>([^<]*)<\/P_15>/.exec(read(name))![1]!;
      assert.equal(Number(answer.totals.document.grand_total), Number(p15), name);
    }
    // The examples cover what EN 16931's recomputation gets wrong.
    for (const kind of ['VAT', 'KOR', 'ZAL', 'ROZ', 'UPR', 'KOR_ZAL', 'KOR_ROZ']) assert.ok(kinds.has(kind), kind);
  });

  test('a tampered P_15 shows a difference and breaks fa3_p_15', () => {
    for (const name of [
      'FA_3_Przykład_1.xml',
      'Fa_3_Przykład_14.xml',
      'FA_3_Przykład_10.xml',
      'Fa_3_Przykład_19.xml',
    ]) {
      const xml = read(name).replace(
        /<P_15>([^<]*)<\/P_15>/,
        (_, value: string) => `<P_15>${Number(value) + 10}</P_15>`,
      );
      const answer = inspect(xml);
      const difference = answer.totals.differences.find((item) => item.bt === 'P_15');
      assert.ok(difference, name);
      // Example 1 states P_15 a grosz above its P_13 + P_14 (allowed alone; tampered, the whole gap shows).
      assert.ok(['10.00', '10.01'].includes(difference.difference), `${name}: ${difference.difference}`);
      assert.ok(
        answer.rules.issues.some((issue) => issue.code === 'fa3_p_15' && issue.path === 'grand_total'),
        name,
      );
    }
  });

  test('a net line whose value is off, or a P_13_1 the lines do not give, shows where', () => {
    const example4 = read('FA_3_Przykład_4.xml');
    const line = inspect(example4.replace('<P_11>16260.10</P_11>', '<P_11>16260.20</P_11>'));
    assert.ok(line.totals.differences.some((item) => item.field === 'lines[0].net' && item.rule === 'line_net'));
    const basis = inspect(example4.replace('<P_13_1>52260.10</P_13_1>', '<P_13_1>52270.10</P_13_1>'));
    const codes = basis.totals.differences.map((item) => item.rule);
    assert.ok(codes.includes('fa3_p_13_1'), codes.join());
  });

  test('a gross-priced line: P_13 / P_14 are the VAT the gross contains, a tampered P_14 shows', () => {
    const example19 = read('Fa_3_Przykład_19.xml');
    assert.deepEqual(inspect(example19).totals.differences, []);
    const tampered = inspect(example19.replace('<P_14_1>187</P_14_1>', '<P_14_1>190</P_14_1>'));
    assert.ok(tampered.totals.differences.some((item) => item.bt === 'P_14_1'));
  });

  test('DoZaplaty is P_15 less SumaOdliczen', () => {
    const example4 = read('FA_3_Przykład_4.xml').replace(
      '<DoZaplaty>63279.92</DoZaplaty>',
      '<DoZaplaty>64279.92</DoZaplaty>',
    );
    const difference = inspect(example4).totals.differences.find((item) => item.bt === 'DoZaplaty');
    assert.equal(difference?.recomputed, '63279.92');
  });
});
