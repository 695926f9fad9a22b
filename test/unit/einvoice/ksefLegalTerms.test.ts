import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ksef as KSEF_FORMAT } from '../../../src/einvoice/formats/ksef/format.js';
import { writeOwnSyntax } from '../../../src/einvoice/ownSyntax.js';
import { readForRender } from '../../../src/einvoice/inbound/readInboundRequest.js';
import { loadLabelCatalogs } from '../../../src/render/labelCatalogs.js';
import { buildInboundView } from '../../../src/render/inboundView.js';
import { KSEF_EXAMPLES } from '../../fixtures/ksefExamples.js';
import { PROJECT_ROOT } from '../../../src/render/templates.js';

/**
 * A received FA(3) printed in another language keeps the Polish legal names where they matter
 * (src/einvoice/formats/ksef/fa3LegalTerms.ts): its kind, the annotations that apply, the
 * exemption's legal basis and the rate codes, each in the page's language with the Polish beside.
 */
const catalogs = loadLabelCatalogs(PROJECT_ROOT);
type Body = { line_items: unknown[]; ksef: Record<string, unknown> };
const split = KSEF_EXAMPLES['ksef-split-payment'] as Body;
const exempt = KSEF_EXAMPLES['ksef-exempt-directive'] as Body;
const mixed = {
  ...split,
  line_items: [...split.line_items, ...exempt.line_items],
  ksef: { ...split.ksef, ...exempt.ksef, annotations: { split_payment: true, cash_accounting: true } },
};
const referencesOf = (body: unknown, locale: string) => {
  const xml = writeOwnSyntax(KSEF_FORMAT, body, new Date('2026-03-02T10:00:00Z')).written.file;
  const read = readForRender({ bytes: xml, format: 'xml', locale, codeArguments: {} });
  return buildInboundView(read, catalogs).inbound!.references;
};

test('German page: split payment, cash accounting, exemption basis and zw with their Polish names', () => {
  const references = referencesOf(mixed, 'de-DE');
  const polish = references.filter((row) => row.lang === 'pl');
  assert.deepEqual(
    polish.map((row) => [row.label, row.value]),
    [
      ['Ist-Versteuerung (P_16)', 'metoda kasowa'],
      ['Split-Payment-Verfahren (P_18A)', 'mechanizm podzielonej płatności'],
      [
        'Rechtsgrundlage der Steuerbefreiung (P_19B)',
        'podstawa zwolnienia: art. 135 ust. 1 lit. b dyrektywy 2006/112/WE',
      ],
      [`${catalogs.de.category_E} (P_12 zw)`, 'zwolnione od podatku'],
    ],
  );
});

test('the kinds KOR and ZAL, reverse charge and self-billing, in English and Japanese', () => {
  const correction = referencesOf(KSEF_EXAMPLES['ksef-correction-decrease'], 'en-GB');
  assert.ok(
    correction.some(
      (row) => row.label === 'Corrective invoice (RodzajFaktury KOR)' && row.value === 'faktura korygująca',
    ),
  );
  const advance = referencesOf(KSEF_EXAMPLES['ksef-advance'], 'ja-JP');
  assert.ok(
    advance.some(
      (row) =>
        row.label === `${catalogs.ja.inbound_kind_advance} (RodzajFaktury ZAL)` && row.value === 'faktura zaliczkowa',
    ),
  );
  const reverse = referencesOf(KSEF_EXAMPLES['ksef-reverse-charge'], 'en-GB');
  assert.ok(reverse.some((row) => row.label === 'Reverse charge (P_18)' && row.value === 'odwrotne obciążenie'));
  const selfBilled = referencesOf(KSEF_EXAMPLES['ksef-zero-rate-domestic-self-billing'], 'en-GB');
  assert.ok(selfBilled.some((row) => row.label === 'Self-billing (P_17)' && row.value === 'samofakturowanie'));
  assert.ok(
    selfBilled.some((row) => row.label === 'Zero rated (P_12 0 KR)' && row.value === 'stawka 0% – dostawa krajowa'),
  );
  // A plain VAT invoice at the standard and reduced rates has no such term.
  assert.equal(
    referencesOf(KSEF_EXAMPLES['ksef-vat-all-standard-rates'], 'en-GB').filter((row) => row.lang === 'pl').length,
    0,
  );
});
