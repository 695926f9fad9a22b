import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  choosePaymentQr,
  type Payment,
  type PaymentQr,
  type PaymentQrChoice,
  type PaymentQrInput,
} from '../../../../src/invoice/paymentQr/index.js';
import { crc16CcittFalse } from '../../../../src/invoice/paymentQr/pix.js';
import { qrInput, SCHEME_INPUTS } from '../../../fixtures/paymentQrInputs.js';

const SWISS_SELLER = {
  name: 'Muster AG',
  street: 'Bahnhofstrasse 1',
  postal_code: '8001',
  city: 'Zürich',
  country: 'CH',
};

function qrOf(choice: PaymentQrChoice): PaymentQr {
  assert.equal(
    choice.kind,
    'qr',
    JSON.stringify(choice, (_, value) => (typeof value === 'bigint' ? value.toString() : value)),
  );
  return (choice as { qr: PaymentQr }).qr;
}

function issuesOf(choice: PaymentQrChoice): { path: string; code: string }[] {
  assert.equal(
    choice.kind,
    'invalid',
    JSON.stringify(choice, (_, value) => (typeof value === 'bigint' ? value.toString() : value)),
  );
  return choice.kind === 'invalid' ? choice.issues.map(({ path, code }) => ({ path, code })) : [];
}

test('EUR + IBAN → EPC069-12 v002 with the balance due and the RF reference as structured remittance', () => {
  const qr = qrOf(choosePaymentQr(SCHEME_INPUTS.epc));
  assert.equal(qr.scheme, 'epc');
  assert.equal(
    qr.payload,
    'BCD\n002\n1\nSCT\nCOBADEFFXXX\nMüller Software GmbH\nDE89370400440532013000\nEUR1234.56\n\nRF18539007547034',
  );
  // Free text, else the invoice number, as unstructured remittance.
  assert.match(
    qrOf(
      choosePaymentQr(
        qrInput(
          { iban: 'DE89370400440532013000', reference: 'Thanks!' },
          { currency: 'EUR', balanceDueMinor: 5n, seller: { name: 'A' } },
        ),
      ),
    ).payload,
    /\nEUR0.05\n\n\nThanks!$/,
  );
  assert.match(
    qrOf(
      choosePaymentQr(
        qrInput({ iban: 'DE89370400440532013000' }, { currency: 'EUR', balanceDueMinor: 100n, seller: { name: 'A' } }),
      ),
    ).payload,
    /\nEUR1.00\n\n\nINV-2026-0042$/,
  );
});

test('CHF + QR-IBAN → Swiss QR-bill with QRR; the free-text reference becomes the message', () => {
  const qr = qrOf(choosePaymentQr(SCHEME_INPUTS.swiss));
  assert.equal(qr.scheme, 'swiss');
  assert.equal(
    qr.payload,
    [
      'SPC',
      '0200',
      '1',
      'CH4431999123000889012',
      'S',
      'Robert Schneider AG',
      'Rue du Lac 1268',
      '',
      '2501',
      'Biel',
      'CH',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '1949.75',
      'CHF',
      'S',
      'Pia-Maria Rutschmann-Schnyder',
      'Grosse Marktgasse 28',
      '',
      '9400',
      'Rorschach',
      'CH',
      'QRR',
      '210000000003139471430009017',
      'Auftrag vom 15.06.2020',
      'EPD',
    ].join('\n'),
  );
});

test('Swiss QR-bill: SCOR from an RF reference, NON without one; EUR with only a QR-IBAN', () => {
  const scor = qrOf(
    choosePaymentQr(
      qrInput(
        { iban: 'CH9300762011623852957', reference: 'RF18539007547034' },
        { currency: 'CHF', balanceDueMinor: 10_000n, seller: SWISS_SELLER },
      ),
    ),
  );
  assert.match(scor.payload, /\nSCOR\nRF18539007547034\nINV-2026-0042\nEPD$/);
  const non = qrOf(
    choosePaymentQr(
      qrInput({ iban: 'CH9300762011623852957' }, { currency: 'CHF', balanceDueMinor: 10_000n, seller: SWISS_SELLER }),
    ),
  );
  assert.match(non.payload, /\n100.00\nCHF\n\n\n\n\n\n\n\nNON\n\nINV-2026-0042\nEPD$/);
  const eur = qrOf(
    choosePaymentQr(
      qrInput(
        { qr_iban: 'CH4431999123000889012', qr_reference: '210000000003139471430009017' },
        { currency: 'EUR', balanceDueMinor: 10_000n, seller: SWISS_SELLER },
      ),
    ),
  );
  assert.equal(eur.scheme, 'swiss');
  assert.match(eur.payload, /\n100.00\nEUR\n/);
});

test("EUR + a Swiss IBAN → EPC (a euro payer's app reads EPC codes), not the QR-bill", () => {
  assert.equal(
    qrOf(
      choosePaymentQr(
        qrInput({ iban: 'CH9300762011623852957' }, { currency: 'EUR', balanceDueMinor: 1n, seller: SWISS_SELLER }),
      ),
    ).scheme,
    'epc',
  );
});

test('BRL + pix_key → static BR Code: ASCII name and city, txid from the invoice number, valid CRC', () => {
  const qr = qrOf(choosePaymentQr(SCHEME_INPUTS.pix));
  assert.equal(qr.scheme, 'pix');
  const body =
    '00020126580014br.gov.bcb.pix01360b9f2f1e-3c4d-4e5f-8a6b-7c8d9e0f1a2b5204000053039865406150.005802BR5921Padaria Sao Joao Ltda6009Sao Paulo62150511INV202600426304';
  assert.equal(qr.payload, body + crc16CcittFalse(body));
  // Names longer than the field are cut, never the key.
  const long = qrOf(
    choosePaymentQr(
      qrInput(
        { pix_key: 'fulano@example.com', account_name: 'Comércio de Alimentos Brasileiros Ltda' },
        { currency: 'BRL', balanceDueMinor: 1n, seller: { name: 'x', city: 'Florianópolis do Sul' } },
      ),
    ),
  );
  assert.match(long.payload, /5925Comercio de Alimentos Bra6015Florianopolis d62/);
});

test('INR + upi_vpa → upi://pay; USD + evm_address → EIP-681 USDC on Base, amount × 10^4 exactly', () => {
  assert.equal(
    qrOf(choosePaymentQr(SCHEME_INPUTS.upi)).payload,
    'upi://pay?pa=acme.tools%40okhdfcbank&pn=Acme%20Tools%20%26%20Co&am=49999.00&cu=INR&tn=INV-2026-0042',
  );
  const usdc = qrOf(choosePaymentQr(SCHEME_INPUTS.eip681));
  assert.equal(
    usdc.payload,
    'ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed&uint256=1250500000',
  );
  assert.deepEqual(usdc.scheme === 'eip681' && usdc.details, {
    address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    network: 'Base',
    chainId: 8453,
    token: 'USDC',
    tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    amount: '1250.50',
  });
  // Far beyond a float's 2^53: still exact.
  const big = qrOf(choosePaymentQr({ ...SCHEME_INPUTS.eip681, balanceDueMinor: 123_456_789_012_345_678n }));
  assert.match(big.payload, /&uint256=1234567890123456780000$/);
});

test('no code: qr none, no payment, nothing due, or no scheme for the currency and data', () => {
  const none = (input: PaymentQrInput) => {
    const choice = choosePaymentQr(input);
    assert.equal(choice.kind, 'none');
    return choice.kind === 'none' ? choice.reason : '';
  };
  assert.equal(
    none(
      qrInput(
        { iban: 'DE89370400440532013000', qr: 'none' },
        { currency: 'EUR', balanceDueMinor: 100n, seller: { name: 'A' } },
      ),
    ),
    'qr_none',
  );
  assert.equal(none({ ...SCHEME_INPUTS.epc, payment: undefined }), 'no_payment');
  assert.equal(none({ ...SCHEME_INPUTS.epc, balanceDueMinor: 0n }), 'nothing_due');
  assert.equal(
    none(
      qrInput({ iban: 'DE89370400440532013000' }, { currency: 'GBP', balanceDueMinor: 100n, seller: { name: 'A' } }),
    ),
    'no_scheme',
  );
  // A Swiss IBAN on a CHF invoice whose seller has only a free-text address: bank details, no QR-bill.
  assert.equal(
    none(qrInput({ iban: 'CH9300762011623852957' }, { currency: 'CHF', balanceDueMinor: 100n, seller: { name: 'A' } })),
    'no_scheme',
  );
});

test('a currency the scheme cannot carry is an issue at the field that asks for it', () => {
  assert.deepEqual(
    issuesOf(
      choosePaymentQr(
        qrInput({ pix_key: 'fulano@example.com' }, { currency: 'EUR', balanceDueMinor: 100n, seller: { name: 'A' } }),
      ),
    ),
    [{ path: 'payment.pix_key', code: 'qr_currency_unsupported' }],
  );
  assert.deepEqual(
    issuesOf(
      choosePaymentQr(
        qrInput(
          { qr_iban: 'CH4431999123000889012', qr_reference: '210000000003139471430009017' },
          { currency: 'USD', balanceDueMinor: 100n, seller: SWISS_SELLER },
        ),
      ),
    ),
    [
      { path: 'payment.qr_iban', code: 'qr_currency_unsupported' },
      { path: 'payment.qr_reference', code: 'qr_currency_unsupported' },
    ],
  );
  assert.deepEqual(issuesOf(choosePaymentQr({ ...SCHEME_INPUTS.eip681, currency: 'CAD' })), [
    { path: 'payment.evm_address', code: 'qr_currency_unsupported' },
  ]);
  assert.deepEqual(issuesOf(choosePaymentQr({ ...SCHEME_INPUTS.upi, currency: 'SGD' })), [
    { path: 'payment.upi_vpa', code: 'qr_currency_unsupported' },
  ]);
});

test('amounts above the scheme maximum (999 999 999.99) are issues; the maximum itself is printed', () => {
  const max = 99_999_999_999n;
  assert.match(qrOf(choosePaymentQr({ ...SCHEME_INPUTS.epc, balanceDueMinor: max })).payload, /\nEUR999999999.99\n/);
  assert.deepEqual(issuesOf(choosePaymentQr({ ...SCHEME_INPUTS.epc, balanceDueMinor: max + 1n })), [
    { path: 'balance_due', code: 'qr_amount_too_large' },
  ]);
  assert.match(
    qrOf(choosePaymentQr({ ...SCHEME_INPUTS.swiss, balanceDueMinor: max })).payload,
    /\n999999999.99\nCHF\n/,
  );
  assert.deepEqual(issuesOf(choosePaymentQr({ ...SCHEME_INPUTS.swiss, balanceDueMinor: max + 1n })), [
    { path: 'balance_due', code: 'qr_amount_too_large' },
  ]);
  assert.deepEqual(issuesOf(choosePaymentQr({ ...SCHEME_INPUTS.pix, balanceDueMinor: 1_000_000_000_000n })), [
    { path: 'balance_due', code: 'qr_amount_too_large' },
  ]);
});

test('Swiss QR-bill: a missing structured address or non-Latin text is an issue with its path', () => {
  const swiss = (payment: Parameters<typeof qrInput>[0], seller: PaymentQrInput['seller']) =>
    issuesOf(choosePaymentQr(qrInput(payment, { currency: 'CHF', balanceDueMinor: 100n, seller })));
  const QR = { qr_iban: 'CH4431999123000889012', qr_reference: '210000000003139471430009017' };
  assert.deepEqual(swiss(QR, { name: 'Muster AG', street: 'Bahnhofstrasse 1' }), [
    { path: 'seller.postal_code', code: 'qr_address_incomplete' },
    { path: 'seller.city', code: 'qr_address_incomplete' },
    { path: 'seller.country', code: 'qr_address_incomplete' },
  ]);
  // An RF reference with a Swiss IBAN asks for the QR-bill: its missing address is reported, not skipped.
  assert.deepEqual(
    swiss(
      { iban: 'CH9300762011623852957', qr_reference: 'RF18539007547034' },
      { name: 'Muster AG', city: 'Bern', country: 'CH' },
    ),
    [{ path: 'seller.postal_code', code: 'qr_address_incomplete' }],
  );
  assert.deepEqual(swiss(QR, { ...SWISS_SELLER, name: '株式会社ミュスター' }), [
    { path: 'seller.name', code: 'qr_text_invalid' },
  ]);
  assert.deepEqual(swiss(QR, { ...SWISS_SELLER, country: 'Schweiz' }), [{ path: 'seller.country', code: 'invalid' }]);
  assert.deepEqual(swiss({ ...QR, account_name: 'x'.repeat(70) }, { ...SWISS_SELLER, city: 'y'.repeat(36) }), [
    { path: 'seller.city', code: 'qr_text_too_long' },
  ]);
});

test('Swiss QR-bill: the buyer is the debtor only with a structured, Latin address; otherwise the field stays blank', () => {
  const withBuyer = (buyer: PaymentQrInput['buyer']) => qrOf(choosePaymentQr({ ...SCHEME_INPUTS.swiss, buyer }));
  const blank = withBuyer({ name: 'Pia Rutschmann' });
  assert.ok(blank.scheme === 'swiss' && blank.fields.debtor === undefined);
  assert.match(blank.payload, /\nCHF\n\n\n\n\n\n\n\nQRR\n/);
  const cyrillic = withBuyer({ name: 'Пия', postal_code: '9400', city: 'Rorschach', country: 'CH' });
  assert.ok(cyrillic.scheme === 'swiss' && cyrillic.fields.debtor === undefined);
});

test('EPC: names over 70 characters or on several lines are issues unless account_name is given', () => {
  const epc = (seller: PaymentQrInput['seller'], account_name?: string) =>
    choosePaymentQr(
      qrInput(
        { iban: 'DE89370400440532013000', ...(account_name ? { account_name } : {}) },
        { currency: 'EUR', balanceDueMinor: 100n, seller },
      ),
    );
  assert.deepEqual(issuesOf(epc({ name: 'x'.repeat(71) })), [{ path: 'seller.name', code: 'qr_text_too_long' }]);
  assert.deepEqual(issuesOf(epc({ name: 'Muster\nGmbH' })), [{ path: 'seller.name', code: 'qr_text_invalid' }]);
  assert.match(qrOf(epc({ name: 'x'.repeat(71) }, 'Muster GmbH')).payload, /\nMuster GmbH\n/);
  assert.deepEqual(
    issuesOf(
      choosePaymentQr({
        ...SCHEME_INPUTS.epc,
        payment: { iban: 'DE89370400440532013000', qr: 'auto' },
        invoiceNumber: 'A\nB',
      }),
    ),
    [{ path: 'invoice_number', code: 'qr_text_invalid' }],
  );
});

test('values that route money are checked again: input that skipped PaymentSchema never yields a code', () => {
  const raw = (payment: Partial<Payment>, currency: string) =>
    choosePaymentQr({ ...SCHEME_INPUTS.epc, currency, payment: { qr: 'auto', ...payment } as Payment });
  assert.deepEqual(issuesOf(raw({ iban: 'DE89370400440532013001' }, 'EUR')), [
    { path: 'payment.iban', code: 'invalid' },
  ]);
  assert.deepEqual(issuesOf(raw({ iban: 'CH4431999123000889012' }, 'EUR')), [
    { path: 'payment.iban', code: 'invalid' },
  ]);
  assert.deepEqual(issuesOf(raw({ evm_address: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed' }, 'USD')), [
    { path: 'payment.evm_address', code: 'invalid' },
  ]);
  assert.deepEqual(issuesOf(raw({ pix_key: '52998224724' }, 'BRL')), [{ path: 'payment.pix_key', code: 'invalid' }]);
  assert.deepEqual(issuesOf(raw({ upi_vpa: 'x' }, 'INR')), [{ path: 'payment.upi_vpa', code: 'invalid' }]);
  assert.deepEqual(issuesOf(raw({ qr_iban: 'CH4431999123000889012', qr_reference: 'RF18539007547034' }, 'CHF')), [
    { path: 'payment.qr_reference', code: 'invalid' },
  ]);
  assert.deepEqual(issuesOf(raw({ iban: 'DE89370400440532013000', reference: 'RF19539007547034' }, 'EUR')), [
    { path: 'payment.reference', code: 'invalid' },
  ]);
});
