import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

test('defaults serve on loopback in local payment mode', () => {
  const config = loadConfig({});
  assert.equal(config.HOST, '127.0.0.1');
  assert.equal(config.PORT, 8080);
  assert.equal(config.PUBLIC_BASE_URL, 'http://127.0.0.1:8080');
  assert.equal(config.localPaymentMode, true);
  assert.equal(config.BODY_LIMIT_BYTES, 1048576);
  assert.deepEqual(config.PRICES, { v1_invoice_pdf: '0.02', v1_e_invoice_factur_x_pdf: '0.02', v1_e_invoice_cii_xml: '0.01', v1_e_invoice_ubl_xml: '0.01' });
  assert.equal(config.X402_NETWORK, 'eip155:8453');
});

test('every bad variable is reported at once', () => {
  try {
    loadConfig({ PORT: 'eighty', RENDER_POOL_SIZE: '0', PAPER_SIZE: 'A3', FACILITATOR_URL: 'ftp://x', PAY_TO: '0x12' });
    assert.fail('expected a ConfigError');
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    const text = error.message;
    for (const name of ['PORT', 'RENDER_POOL_SIZE', 'PAPER_SIZE', 'FACILITATOR_URL', 'PAY_TO']) assert.match(text, new RegExp(`${name}:`), name);
    assert.equal(error.problems.length, 5);
  }
});

test('production mode needs a payTo; prices merge with the defaults', () => {
  assert.throws(() => loadConfig({ FACILITATOR_URL: 'https://facilitator.example' }), /PAY_TO: is required/);
  const config = loadConfig({
    FACILITATOR_URL: 'https://facilitator.example',
    PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
    PRICES: 'v1_late_fee=0.01, v1_payment_terms = 0.005',
    PUBLIC_BASE_URL: 'https://api.example/',
  });
  assert.equal(config.localPaymentMode, false);
  assert.deepEqual(config.PRICES, {
    v1_invoice_pdf: '0.02',
    v1_e_invoice_factur_x_pdf: '0.02',
    v1_e_invoice_cii_xml: '0.01',
    v1_e_invoice_ubl_xml: '0.01',
    v1_late_fee: '0.01',
    v1_payment_terms: '0.005',
  });
  assert.equal(config.PUBLIC_BASE_URL, 'https://api.example');
  assert.throws(() => loadConfig({ PRICES: 'v1_invoice_pdf=0.0000001' }), /PRICES/);
});

test('empty variables count as unset', () => {
  assert.equal(loadConfig({ PORT: '', HOST: '' }).PORT, 8080);
});
