import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decimalAmount, groupedAmount } from '../../../../src/invoice/paymentQr/amount.js';
import { erc20TransferUri, USDC_ON_BASE } from '../../../../src/invoice/paymentQr/eip681.js';
import { epcPayload } from '../../../../src/invoice/paymentQr/epc.js';
import { checkEvmAddress } from '../../../../src/invoice/paymentQr/evmAddress.js';
import { crc16CcittFalse, pixPayload } from '../../../../src/invoice/paymentQr/pix.js';
import { swissQrPayload } from '../../../../src/invoice/paymentQr/swissQrBill.js';
import { upiPayload } from '../../../../src/invoice/paymentQr/upi.js';

/** Golden payloads: the published specifications' own examples, rebuilt from their data. */

test("EPC069-12: the guideline's Red Cross example, as version 002", () => {
  // EPC069-12 prints it as version 001 (BIC mandatory then); version 002 differs in that line only.
  const payload = epcPayload({
    bic: 'BPOTBEB1',
    name: 'Red Cross of Belgium',
    iban: 'BE72000000001616',
    amount: '1',
    purpose: 'CHAR',
    text: 'Urgency fund',
    information: 'Sample EPC QR code',
  });
  assert.equal(
    payload,
    'BCD\n002\n1\nSCT\nBPOTBEB1\nRed Cross of Belgium\nBE72000000001616\nEUR1\nCHAR\n\nUrgency fund\nSample EPC QR code',
  );
});

test('EPC069-12: trailing empty elements are left out; structured and unstructured remittance exclude each other', () => {
  assert.equal(
    epcPayload({
      name: 'Müller GmbH',
      iban: 'DE89370400440532013000',
      amount: '1234.56',
      creditorReference: 'RF18539007547034',
    }),
    'BCD\n002\n1\nSCT\n\nMüller GmbH\nDE89370400440532013000\nEUR1234.56\n\nRF18539007547034',
  );
  assert.equal(
    epcPayload({ name: 'A', iban: 'DE89370400440532013000' }),
    'BCD\n002\n1\nSCT\n\nA\nDE89370400440532013000',
  );
  assert.throws(
    () => epcPayload({ name: 'A', iban: 'DE89370400440532013000', creditorReference: 'RF18539007547034', text: 'x' }),
    /exclude/,
  );
});

test("Swiss QR-bill: the IG's example 1 (QR-IBAN, QR reference, structured addresses, bill information)", () => {
  const payload = swissQrPayload({
    account: 'CH4431999123000889012',
    creditor: {
      name: 'Robert Schneider AG',
      street: 'Rue du Lac',
      buildingNumber: '1268',
      postalCode: '2501',
      town: 'Biel',
      country: 'CH',
    },
    amount: '1949.75',
    currency: 'CHF',
    debtor: {
      name: 'Pia-Maria Rutschmann-Schnyder',
      street: 'Grosse Marktgasse',
      buildingNumber: '28',
      postalCode: '9400',
      town: 'Rorschach',
      country: 'CH',
    },
    referenceType: 'QRR',
    reference: '210000000003139471430009017',
    message: 'Auftrag vom 15.06.2020',
    billInformation: '//S1/10/10201409/11/200701/20/140.000-53/30/102673831/31/200615/32/7.7/33/7.7:139.40/40/0:30',
  });
  const lines = [
    'SPC',
    '0200',
    '1',
    'CH4431999123000889012',
    'S',
    'Robert Schneider AG',
    'Rue du Lac',
    '1268',
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
    'Grosse Marktgasse',
    '28',
    '9400',
    'Rorschach',
    'CH',
    'QRR',
    '210000000003139471430009017',
    'Auftrag vom 15.06.2020',
    'EPD',
    '//S1/10/10201409/11/200701/20/140.000-53/30/102673831/31/200615/32/7.7/33/7.7:139.40/40/0:30',
  ];
  assert.equal(payload, lines.join('\n'));
  // 31 elements up to the trailer (IG 4.2.2), the trailer being EPD.
  assert.equal(payload.split('\n').indexOf('EPD'), 30);
});

test('Swiss QR-bill: without debtor and reference (NON), the debtor block is seven empty lines', () => {
  const payload = swissQrPayload({
    account: 'CH9300762011623852957',
    creditor: { name: 'Muster AG', postalCode: '8000', town: 'Zürich', country: 'CH' },
    amount: '50.00',
    currency: 'EUR',
    referenceType: 'NON',
    message: 'R-17',
  });
  assert.equal(
    payload,
    [
      'SPC',
      '0200',
      '1',
      'CH9300762011623852957',
      'S',
      'Muster AG',
      '',
      '',
      '8000',
      'Zürich',
      'CH',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '50.00',
      'EUR',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      'NON',
      '',
      'R-17',
      'EPD',
    ].join('\n'),
  );
  assert.throws(
    () =>
      swissQrPayload({
        account: 'CH9300762011623852957',
        creditor: { name: 'A', postalCode: '1', town: 'B', country: 'CH' },
        currency: 'CHF',
        referenceType: 'NON',
        reference: '1',
      }),
    /NON/,
  );
});

test("PIX: the BCB manual's static BR Code example and its CRC", () => {
  const payload = pixPayload({ key: '123e4567-e12b-12d1-a456-426655440000', name: 'Fulano de Tal', city: 'BRASILIA' });
  assert.equal(
    payload,
    '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D',
  );
});

test('PIX: amount and txid fields; CRC-16/CCITT-FALSE check value', () => {
  assert.equal(crc16CcittFalse('123456789'), '29B1');
  const payload = pixPayload({
    key: 'fulano@example.com',
    amount: '150.00',
    name: 'Padaria Sao Joao Ltda',
    city: 'Sao Paulo',
    txid: 'INV20260042',
  });
  assert.equal(
    payload.slice(0, -4),
    '00020126400014br.gov.bcb.pix0118fulano@example.com5204000053039865406150.005802BR5921Padaria Sao Joao Ltda6009Sao Paulo62150511INV202600426304',
  );
  assert.equal(payload.slice(-4), crc16CcittFalse(payload.slice(0, -4)));
});

test("EIP-681: the specification's ERC-20 transfer example", () => {
  const uri = erc20TransferUri({
    token: '0x89205a3a3b2a69de6dbf7f01ed13b2108b2c43e7',
    to: '0x8e23ee67d1332ad560396262c48ffbb01f93d052',
    amount: 1n,
  });
  assert.equal(
    uri,
    'ethereum:0x89205a3a3b2a69de6dbf7f01ed13b2108b2c43e7/transfer?address=0x8e23ee67d1332ad560396262c48ffbb01f93d052&uint256=1',
  );
});

test('EIP-681: USDC on Base, chain id and 6-decimal amount as a plain integer', () => {
  assert.ok(checkEvmAddress(USDC_ON_BASE.token).ok, 'the USDC contract address is EIP-55 checksummed');
  const uri = erc20TransferUri({
    token: USDC_ON_BASE.token,
    chainId: USDC_ON_BASE.chainId,
    to: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    amount: 999_999_999_990_000n,
  });
  assert.equal(
    uri,
    'ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed&uint256=999999999990000',
  );
});

test('UPI: upi://pay with percent-encoded values (a space as %20, never +)', () => {
  assert.equal(
    upiPayload({ vpa: 'acme.tools@okhdfcbank', name: 'Acme Tools & Co', amount: '49999.00', note: 'INV 42/2026' }),
    'upi://pay?pa=acme.tools%40okhdfcbank&pn=Acme%20Tools%20%26%20Co&am=49999.00&cu=INR&tn=INV%2042%2F2026',
  );
});

test('amounts from minor units, exact', () => {
  const cases: [bigint, number, string][] = [
    [0n, 2, '0.00'],
    [5n, 2, '0.05'],
    [194_975n, 2, '1949.75'],
    [99_999_999_999n, 2, '999999999.99'],
    [12n, 0, '12'],
    [123_456_789_012_345_678_901n, 2, '1234567890123456789.01'],
  ];
  for (const [minor, digits, text] of cases) assert.equal(decimalAmount(minor, digits), text);
  assert.equal(groupedAmount(194_975n, 2), '1 949.75');
  assert.equal(groupedAmount(99_999_999_999n, 2), '999 999 999.99');
  assert.equal(groupedAmount(10_000n, 2), '100.00');
  assert.throws(() => decimalAmount(-1n, 2));
});
