import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fatturaPAFieldsOf, produceFatturaPA } from '../../src/einvoice/formats/fatturapa/request.js';
import { prepareProfiledEInvoice } from '../../src/einvoice/prepareEInvoice.js';
import { FATTURAPA_EXAMPLES } from '../fixtures/fatturapaExamples.js';
import { normalizeText, pdfPages } from '../fixtures/pdfTools.js';
import { withBodies } from '../support/fatturapaBodies.js';
import { startRenderingApp, type TestApp } from '../support/testApp.js';

/**
 * POST /v1/e-invoice/render.pdf of a received FatturaPA with the real renderer (price 0 here): the
 * courtesy copy in Italian and in English, the Italian legal names beside the translated labels,
 * the withholding and the net amount to pay.
 */
let app: TestApp;
before(async () => (app = await startRenderingApp()), { timeout: 60_000 });
after(async () => await app?.close());

test('a professional’s FatturaPA printed in Italian, English and German', { timeout: 120_000 }, async () => {
  const checked = prepareProfiledEInvoice(
    FATTURAPA_EXAMPLES['td01-professional-withholding-pension-fund'],
    'fatturapa',
  );
  const xml = produceFatturaPA(checked.prepared, fatturaPAFieldsOf(checked)!).xml;
  // The total, then the withholding as settled, then what the seller is owed (ImportoPagamento); the
  // reader's notes and the pension fund's charge under the page's own words for what they are
  // (printedAs: inboundExtras.ts, inboundAllowances.ts).
  const expected: Record<string, string[]> = {
    it: [
      'Visualizzazione di una fattura elettronica',
      'Totale 1.448,43',
      'Saldo da pagare EUR 1.220,43',
      'Ritenuta — Ritenuta RT01',
      'Netto a pagare — Netto a pagare: 1220.43',
      'Contributo cassa previdenziale (BG-21): 45,60 — Cassa previdenziale TC04',
    ],
    en: [
      'Visualisation of an electronic invoice',
      'Total 1,448.43',
      'Balance due EUR 1,220.43',
      'Withholding tax — Ritenuta RT01',
      'Net amount to pay — Netto a pagare: 1220.43',
      'Pension fund contribution (BG-21): 45.60 — Cassa previdenziale TC04',
    ],
    de: [
      'Visualisierung einer elektronischen Rechnung',
      'Gesamt 1.448,43',
      'Noch zu zahlen EUR 1.220,43',
      'Quellensteuer (Steuereinbehalt) — Ritenuta RT01',
      'Zu zahlender Nettobetrag — Netto a pagare: 1220.43',
      'Beitrag zur Versorgungskasse (BG-21): 45,60 — Cassa previdenziale TC04',
    ],
  };
  const ITALIAN_NAMES = [
    'Regime fiscale RF01 – Ordinario',
    'Natura N1 – Escluse ex art. 15 · Art. 15 DPR 633/72',
    'Esigibilità IVA I – IVA ad esigibilità immediata',
  ];
  // The page's own word for each code, its Italian legal name beside (readerLegalTerms.ts).
  const legalTerms: Record<string, string[]> = {
    it: ['Regime fiscale (RegimeFiscale)', 'Natura dell’operazione (Natura)', 'Esigibilità IVA (EsigibilitaIVA)'],
    en: ['Tax regime (RegimeFiscale)', 'Type of VAT-free transaction (Natura)', 'VAT chargeability (EsigibilitaIVA)'],
    de: [
      'Steuerregelung (RegimeFiscale)',
      'Art des umsatzsteuerfreien Umsatzes (Natura)',
      'Entstehung der Umsatzsteuer (EsigibilitaIVA)',
    ],
  };
  for (const [locale, labels] of Object.entries(expected)) {
    const response = await fetch(`${app.url}/v1/e-invoice/render.pdf?locale=${locale}`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: xml as unknown as BodyInit,
      signal: AbortSignal.timeout(60_000),
    });
    assert.equal(response.status, 200, locale);
    const text = normalizeText(pdfPages(Buffer.from(await response.arrayBuffer())).join('\n')).replace(/\s+/g, ' ');
    for (const wanted of [
      ...labels,
      ...legalTerms[locale]!.map((term, at) => `${term} ${ITALIAN_NAMES[at]}`),
      'FatturaPA · FatturaPA 1.2 FPR12 · TD01',
      'Regime fiscale RF01 – Ordinario',
      'N1 · Escluse ex art. 15 · Art. 15 DPR 633/72',
      'IVA ad esigibilità immediata',
      'Ritenuta RT01 20.00 %: 228.00',
      'Netto a pagare: 1220.43',
      'Studio Bianchi Ingegneria',
    ])
      assert.ok(text.includes(wanted), `${locale}: ${wanted}`);
  }
});

test('a file of three bodies prints each, every one from a new page', { timeout: 120_000 }, async () => {
  const checked = prepareProfiledEInvoice(FATTURAPA_EXAMPLES['td01-mixed-rates'], 'fatturapa');
  const xml = withBodies(produceFatturaPA(checked.prepared, fatturaPAFieldsOf(checked)!).xml, [
    { number: 'FT-101' },
    { number: 'FT-102', statedTotal: '1471.36' },
    { number: 'FT-103' },
  ]);
  const response = await fetch(`${app.url}/v1/e-invoice/render.pdf?locale=it`, {
    method: 'POST',
    headers: { 'content-type': 'application/xml' },
    body: xml as unknown as BodyInit,
    signal: AbortSignal.timeout(60_000),
  });
  assert.equal(response.status, 200);
  const pages = pdfPages(Buffer.from(await response.arrayBuffer())).map((page) =>
    normalizeText(page).replace(/\s+/g, ' '),
  );
  // Each body opens with its masthead (its number) and the visualisation notice at the top of a page.
  const banner = 'Visualizzazione di una fattura elettronica';
  const starts = pages.flatMap((page, at) => (page.includes(banner) ? [at] : []));
  assert.equal(starts.length, 3, starts.join());
  assert.equal(starts[0], 0);
  ['FT-101', 'FT-102', 'FT-103'].forEach((number, at) => {
    const top = pages[starts[at]!]!.slice(0, pages[starts[at]!]!.indexOf(banner));
    assert.ok(top.includes(number) && top.length < 120, `${number}: ${top}`);
  });
  assert.equal(Number(response.headers.get('x-page-count')), pages.length);
  // Each body's pages carry its own body marker; the tampered second shows its own difference.
  const second = pages.slice(starts[1], starts[2]).join(' ');
  assert.ok(second.includes('Documento 2') && !second.includes('Documento 3'), second);
  assert.ok(!pages.join(' ').includes('FatturaElettronicaBody'));
  assert.ok(second.includes('Totale (BT-112) 1.471,36 1.461,36'), second);
  assert.ok(!pages.slice(0, starts[1]!).join(' ').includes('1.471,36'));
  // The banner says, in the page's language, that the whole file is printed, singling out no document.
  assert.ok(pages[0]!.includes('ciascuno stampato da una nuova pagina'), pages[0]);
  assert.ok(!pages.join(' ').includes('questo è il documento'));
});
