import assert from 'node:assert/strict';
import { test } from 'node:test';
import { choosePaymentQr, type SwissQr } from '../../../src/invoice/paymentQr/index.js';
import {
  buildSwissQrBillView,
  SWISS_QR_BILL_LABELS,
  swissQrBillLanguage,
} from '../../../src/render/swissQrBillView.js';
import { qrInput, SCHEME_INPUTS } from '../../fixtures/paymentQrInputs.js';
import { swissQrBillPage } from '../../fixtures/qrPages.js';

function swissQr(input = SCHEME_INPUTS.swiss): SwissQr {
  const choice = choosePaymentQr(input);
  assert.ok(choice.kind === 'qr' && choice.qr.scheme === 'swiss');
  return choice.qr as SwissQr;
}

test('the view prints what the code holds, formatted per the style guide', () => {
  const view = buildSwissQrBillView(swissQr(), 'de');
  assert.equal(view.account, 'CH44 3199 9123 0008 8901 2');
  assert.deepEqual(view.creditor, ['Robert Schneider AG', 'Rue du Lac 1268', '2501 Biel']);
  assert.equal(view.reference, '21 00000 00003 13947 14300 09017');
  assert.equal(view.additionalInformation, 'Auftrag vom 15.06.2020');
  assert.deepEqual(view.debtor, ['Pia-Maria Rutschmann-Schnyder', 'Grosse Marktgasse 28', '9400 Rorschach']);
  assert.equal(view.currency, 'CHF');
  assert.equal(view.amount, '1 949.75');
  assert.equal(view.labels.paymentPart, 'Zahlteil');
  assert.match(view.qrSvg.toHTML(), /^<svg class="payment-qr" viewBox="0 0 \d+ \d+" width="46mm" height="46mm"/);
});

test('SCOR in blocks of 4, NON without reference, a foreign creditor with its country code, no debtor → null', () => {
  const seller = {
    name: 'Muster GmbH',
    street: 'Hauptstraße 5',
    postal_code: '78462',
    city: 'Konstanz',
    country: 'DE',
  };
  const scor = buildSwissQrBillView(
    swissQr(
      qrInput(
        { iban: 'CH9300762011623852957', reference: 'RF18539007547034' },
        { currency: 'CHF', balanceDueMinor: 100n, seller },
      ),
    ),
  );
  assert.equal(scor.reference, 'RF18 5390 0754 7034');
  assert.deepEqual(scor.creditor, ['Muster GmbH', 'Hauptstraße 5', 'DE-78462 Konstanz']);
  assert.equal(scor.debtor, null);
  const non = buildSwissQrBillView(
    swissQr(qrInput({ iban: 'CH9300762011623852957' }, { currency: 'CHF', balanceDueMinor: 100n, seller })),
  );
  assert.equal(non.reference, null);
  assert.equal(non.additionalInformation, 'INV-2026-0042');
});

test('language from the invoice locale: de, fr, it, else English; every language has every label', () => {
  assert.deepEqual(['de-CH', 'fr', 'it-CH', 'en-GB', 'rm-CH', undefined].map(swissQrBillLanguage), [
    'de',
    'fr',
    'it',
    'en',
    'en',
    'en',
  ]);
  const keys = Object.keys(SWISS_QR_BILL_LABELS.en).sort();
  for (const labels of Object.values(SWISS_QR_BILL_LABELS)) assert.deepEqual(Object.keys(labels).sort(), keys);
});

test('the partial compiles in strict, known-helpers-only mode and escapes user text', () => {
  const seller = { name: 'A <b>&</b> "B"', street: 'Rue 1', postal_code: '1200', city: 'Genève', country: 'CH' };
  const html = swissQrBillPage(
    buildSwissQrBillView(
      swissQr(qrInput({ iban: 'CH9300762011623852957' }, { currency: 'CHF', balanceDueMinor: 100n, seller })),
      'fr',
    ),
  );
  assert.doesNotMatch(html, /<b>/);
  assert.match(html, /A &lt;b&gt;&amp;&lt;\/b&gt; &quot;B&quot;/);
  assert.match(html, /Section paiement/);
  assert.match(html, /Payable par \(nom\/adresse\)/);
  assert.match(html, /<svg class="qr-bill__blank qr-bill__blank--payment"/);
  assert.doesNotMatch(html, /Référence/, 'no reference heading for NON');
  const full = swissQrBillPage(buildSwissQrBillView(swissQr(), 'en')).replace(/<style>[\s\S]*<\/style>/, '');
  assert.match(
    full,
    /<h3>Payable by<\/h3>\s*<p>Pia-Maria Rutschmann-Schnyder<br>Grosse Marktgasse 28<br>9400 Rorschach<\/p>/,
  );
  assert.doesNotMatch(full, /qr-bill__blank/);
  // Nothing that could fetch: no URL anywhere in the slip's markup.
  assert.doesNotMatch(full, /https?:|url\(|src=|href=/);
});
