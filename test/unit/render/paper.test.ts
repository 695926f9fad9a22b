import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../../src/config.js';
import { CURRENCY_CODES, type CurrencyCode } from '../../../src/invoice/currencies.js';
import { prepareInvoice } from '../../../src/invoice/prepareInvoice.js';
import { PAPER_SETTINGS, paperFor, paperOf } from '../../../src/render/paper.js';
import { QR_INVOICES } from '../../../src/invoice/examplePaymentQr.js';

// docs/invoice.md, paper size: Letter where the currency's home market prints on Letter (the United
// States, Canada, Mexico), A4 everywhere else. Written out per currency, not derived from the code.
const EXPECTED: Record<CurrencyCode, 'A4' | 'Letter'> = {
  USD: 'Letter',
  CAD: 'Letter',
  MXN: 'Letter',
  EUR: 'A4',
  GBP: 'A4',
  JPY: 'A4',
  AUD: 'A4',
  CHF: 'A4',
  CNY: 'A4',
  INR: 'A4',
  BRL: 'A4',
  SGD: 'A4',
  PLN: 'A4',
  NZD: 'A4',
  MYR: 'A4',
  AED: 'A4',
};

test('auto: every supported currency has its decided paper, and a new currency needs a decision here', () => {
  assert.deepEqual(Object.keys(EXPECTED).sort(), [...CURRENCY_CODES].sort());
  for (const currency of CURRENCY_CODES) assert.equal(paperFor(currency, 'auto'), EXPECTED[currency], currency);
});

test('a forced paper size wins over the currency', () => {
  for (const currency of CURRENCY_CODES) {
    for (const forced of ['A4', 'Letter'] as const) assert.equal(paperFor(currency, forced), forced);
  }
});

test('PAPER_SIZE accepts exactly the paper settings the renderer knows', () => {
  for (const setting of PAPER_SETTINGS) assert.equal(loadConfig({ PAPER_SIZE: setting }).PAPER_SIZE, setting);
  for (const wrong of ['A3', 'letter', 'legal'])
    assert.throws(() => loadConfig({ PAPER_SIZE: wrong }), /PAPER_SIZE: must be auto, A4 or Letter/);
});

test('an invoice with a Swiss QR-bill is A4 whatever the setting (its payment part is defined on A4); others follow paperFor', () => {
  const swiss = prepareInvoice(QR_INVOICES.swiss);
  assert.equal(swiss.paymentQr?.scheme, 'swiss');
  for (const setting of PAPER_SETTINGS) assert.equal(paperOf(swiss, setting), 'A4', setting);
  const epc = prepareInvoice(QR_INVOICES.epc);
  for (const setting of PAPER_SETTINGS) assert.equal(paperOf(epc, setting), paperFor('EUR', setting), setting);
});
