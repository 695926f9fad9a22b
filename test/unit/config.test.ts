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
  assert.deepEqual(config.PRICES, {
    v1_invoice_pdf: '0.02',
    v1_e_invoice_factur_x_pdf: '0.02',
    v1_e_invoice_cii_xml: '0.01',
    v1_e_invoice_ubl_xml: '0.01',
    v1_e_invoice_ksef_xml: '0.01',
    v1_e_invoice_fatturapa_xml: '0.01',
    v1_e_invoice_verifactu_xml: '0.01',
    v1_invoices_zip: '0.02',
    v1_e_invoice_render_pdf: '0.02',
  });
  assert.equal(config.X402_NETWORK, 'eip155:8453');
});

test('every bad variable is reported at once', () => {
  try {
    loadConfig({ PORT: 'eighty', RENDER_POOL_SIZE: '0', PAPER_SIZE: 'A3', FACILITATOR_URL: 'ftp://x', PAY_TO: '0x12' });
    assert.fail('expected a ConfigError');
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    const text = error.message;
    for (const name of ['PORT', 'RENDER_POOL_SIZE', 'PAPER_SIZE', 'FACILITATOR_URL', 'PAY_TO'])
      assert.match(text, new RegExp(`${name}:`), name);
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
    v1_e_invoice_ksef_xml: '0.01',
    v1_e_invoice_fatturapa_xml: '0.01',
    v1_e_invoice_verifactu_xml: '0.01',
    v1_invoices_zip: '0.02',
    v1_e_invoice_render_pdf: '0.02',
    v1_late_fee: '0.01',
    v1_payment_terms: '0.005',
  });
  assert.equal(config.PUBLIC_BASE_URL, 'https://api.example');
  assert.throws(() => loadConfig({ PRICES: 'v1_invoice_pdf=0.0000001' }), /PRICES/);
});

test('a price a stock x402 client would refuse to pay (a batch at its largest size included) is refused, naming PRICES', () => {
  // 50 invoices at 0.02 USD: exactly the 1 USD @x402/fetch pays with its default spend controls.
  assert.equal(loadConfig({ PRICES: 'v1_invoices_zip=0.02' }).PRICES.v1_invoices_zip, '0.02');
  assert.throws(
    () => loadConfig({ PRICES: 'v1_invoices_zip=0.021' }),
    /PRICES: v1_invoices_zip=0\.021: a batch of 50 invoices at 0\.021 USD each costs 1\.05 USD.*spendControls\.maxAmountPerPayment; ask at most 0\.02 USD/,
  );
  assert.equal(loadConfig({ PRICES: 'v1_invoice_pdf=1' }).PRICES.v1_invoice_pdf, '1');
  assert.throws(() => loadConfig({ PRICES: 'v1_invoice_pdf=1.000001' }), /PRICES: v1_invoice_pdf=1\.000001/);
});

test('empty variables count as unset', () => {
  assert.equal(loadConfig({ PORT: '', HOST: '' }).PORT, 8080);
});

test('a real facilitator never pays into a public test account', () => {
  const production = { FACILITATOR_URL: 'https://facilitator.example', PUBLIC_BASE_URL: 'https://api.example' };
  // Anvil's account 0 (what the compose file used to default to), and Hardhat's account 19 in lower case.
  for (const [PAY_TO, index] of [
    ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 0],
    ['0x8626f6940e2eb28930efb4cef49b2d1f2c9c1199', 19],
  ] as const) {
    assert.throws(
      () => loadConfig({ ...production, PAY_TO }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.length === 1 &&
        error.problems[0]!.startsWith(
          `PAY_TO: ${PAY_TO} is account ${index} of the public anvil/Hardhat test mnemonic`,
        ) &&
        /private key is published/.test(error.message) &&
        /LOCAL_TEST_CHAIN=on/.test(error.message),
      PAY_TO,
    );
  }
  // NODE_ENV does not matter: the money is real whatever the service calls its environment.
  assert.throws(
    () => loadConfig({ ...production, NODE_ENV: 'development', PAY_TO: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }),
    /PAY_TO: .* is account 1 of/,
  );
  assert.throws(
    () => loadConfig({ ...production, LOCAL_TEST_CHAIN: 'off', PAY_TO: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }),
    /is account 1 of/,
  );
  // An address next to a test account's is not one.
  assert.equal(
    loadConfig({ ...production, PAY_TO: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92267' }).PAY_TO,
    '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92267',
  );
});

test('public test accounts are allowed where the chain is a local test chain', () => {
  const devAccount0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
  // Local payment mode (no facilitator configured): the embedded chain.
  assert.equal(loadConfig({ PAY_TO: devAccount0 }).localPaymentMode, true);
  // A shared local payment network (the compose file's payment-network, npm run topology).
  const shared = loadConfig({
    FACILITATOR_URL: 'http://payment-network:8546',
    PAY_TO: devAccount0,
    LOCAL_TEST_CHAIN: 'on',
  });
  assert.equal(shared.PAY_TO, devAccount0);
  assert.equal(shared.LOCAL_TEST_CHAIN, 'on');
  assert.equal(loadConfig({}).LOCAL_TEST_CHAIN, 'off');
  assert.throws(() => loadConfig({ LOCAL_TEST_CHAIN: 'yes' }), /LOCAL_TEST_CHAIN: must be on or off/);
});

test('RECEIPT_SIGNING_KEY: malformed is refused without echoing it; a public test key only on a local test chain', () => {
  const secretish = `0x${'12'.repeat(31)}`; // 31 bytes
  assert.throws(
    () => loadConfig({ RECEIPT_SIGNING_KEY: secretish }),
    (error: Error) =>
      /RECEIPT_SIGNING_KEY: must be a 0x-prefixed 32-byte hex/.test(error.message) &&
      !error.message.includes(secretish),
  );
  assert.throws(() => loadConfig({ RECEIPT_SIGNING_KEY: `0x${'0'.repeat(64)}` }), /RECEIPT_SIGNING_KEY: must be/);
  // Account 1 of the "test test … junk" mnemonic.
  const publicKey = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
  const production = {
    FACILITATOR_URL: 'https://facilitator.example',
    PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
  };
  assert.throws(
    () => loadConfig({ ...production, RECEIPT_SIGNING_KEY: publicKey }),
    /RECEIPT_SIGNING_KEY: is the key of account 1 /,
  );
  assert.equal(
    loadConfig({
      ...production,
      LOCAL_TEST_CHAIN: 'on',
      PAY_TO: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      RECEIPT_SIGNING_KEY: publicKey,
    }).RECEIPT_SIGNING_KEY,
    publicKey,
  );
  assert.equal(loadConfig({ RECEIPT_SIGNING_KEY: publicKey }).localPaymentMode, true, 'local payment mode: any key');
  const own = `0x${'5a'.repeat(32)}`;
  assert.equal(loadConfig({ ...production, RECEIPT_SIGNING_KEY: own }).RECEIPT_SIGNING_KEY, own);
  assert.equal(loadConfig(production).RECEIPT_SIGNING_KEY, undefined, 'unset: receipts off in production');
});
