import assert from 'node:assert/strict';
import { test } from 'node:test';
import { furtherDetails } from '../../../src/render/inbound/furtherDetails.js';
import { inboundText } from '../../../src/render/inbound/inboundText.js';
import { INBOUND_WARM_UP } from '../../../src/render/inboundExample.js';
import { loadLabelCatalogs } from '../../../src/render/labelCatalogs.js';
import { PROJECT_ROOT } from '../../../src/render/templates.js';

/**
 * "Further details" of a received document (render/inbound/furtherDetails.ts, detailTerms.ts):
 * each value under whose it is and what it is, in the page's language, its BT number beside; one
 * row per label with a line's values led by the line number; what repeats the page left out.
 * Runs without ../shared (inboundReadablePage.test.ts prints the whole corpus where it is present).
 */
const catalogs = loadLabelCatalogs(PROJECT_ROOT);
const invoice = {
  ...INBOUND_WARM_UP.invoice,
  otherValues: [
    {
      bt: null,
      path: 'SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/InvoiceeTradeParty/Name',
      value: 'Billing AG',
    },
    { bt: null, path: 'InvoiceLine[1]/TaxTotal/TaxAmount', value: '1.90' },
    { bt: null, path: 'InvoiceLine[2]/TaxTotal/TaxAmount', value: '3.80' },
    { bt: 'BT-120', path: 'InvoiceLine[2]/Item/ClassifiedTaxCategory/TaxExemptionReason', value: 'Exempt' },
    { bt: null, path: 'InvoiceLine[1]/Item/ClassifiedTaxCategory/TaxScheme/ID', value: 'GST' },
    { bt: null, path: 'UBLVersionID', value: '2.1' },
    { bt: null, path: 'Stopka/Rejestry/KRS', value: '0000099999' },
    { bt: null, path: 'Fa/WarunkiTransakcji/Transport/Przewoznik/DaneIdentyfikacyjne/NIP', value: '5250000009' },
  ],
};

test('every value under words from the catalog, never its path; repeats left out', () => {
  const rows = furtherDetails(invoice, inboundText(undefined, 'EUR', catalogs));
  assert.deepEqual(
    rows.map(({ label, value }) => [label, value]),
    [
      ['Invoice recipient — Name', 'Billing AG'],
      ['Tax — VAT', 'Line 1: 1.90 · Line 2: 3.80'],
      ['Tax — Reason (BT-120)', 'Line 2: Exempt'],
      ['Registers — KRS', '0000099999'],
      ['Carrier — Tax ID', '5250000009'],
    ],
  );
  for (const { label } of rows) assert.doesNotMatch(label, /\w\/\w|[a-z][A-Z]/, label);
});

test("in the page's language: German and Polish words for the same values", () => {
  const german = furtherDetails(invoice, inboundText('de-DE', 'EUR', catalogs)).map((row) => row.label);
  assert.equal(german[0], 'Rechnungsempfänger — Name');
  assert.equal(german[1], `${catalogs.de.tax} — ${catalogs.de.vat_amount}`);
  assert.equal(german[2], `${catalogs.de.tax} — Grund (BT-120)`);
  const polish = furtherDetails(invoice, inboundText('pl-PL', 'EUR', catalogs));
  assert.equal(polish[3]!.label, 'Rejestry — KRS');
  assert.equal(polish[4]!.label, `Przewoźnik — ${catalogs.pl.tax_id}`);
  assert.equal(polish[1]!.value, 'Pozycja 1: 1.90 · Pozycja 2: 3.80');
});
