import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as v from 'valibot';
import { toIssues } from '../../../../src/invoice/issues.js';
import { PaymentSchema } from '../../../../src/invoice/paymentQr/index.js';

// As the invoice will hold it: issues carry paths like payment.qr_reference.
const Invoice = v.strictObject({ payment: PaymentSchema });
const parse = (payment: unknown) => v.safeParse(Invoice, { payment });
const issuesOf = (payment: unknown) => {
  const result = parse(payment);
  assert.equal(result.success, false, 'expected issues');
  return result.success ? [] : toIssues(result.issues).map(({ path, message }) => ({ path, message }));
};

test('every field optional; qr defaults to auto; values come out in electronic form', () => {
  const empty = parse({});
  assert.ok(empty.success);
  assert.deepEqual(empty.output.payment, { qr: 'auto' });
  const full = parse({
    iban: 'de89 3704 0044 0532 0130 00',
    bic: 'cobadeffxxx',
    account_name: 'Müller Software GmbH',
    reference: 'rf18 5390 0754 7034',
    pix_key: '529.982.247-25',
    upi_vpa: 'acme.tools@okhdfcbank',
    evm_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    qr: 'none',
  });
  assert.ok(full.success, JSON.stringify(full.issues));
  assert.deepEqual(full.output.payment, {
    iban: 'DE89370400440532013000',
    bic: 'COBADEFFXXX',
    account_name: 'Müller Software GmbH',
    reference: 'RF18539007547034',
    pix_key: '52998224725',
    upi_vpa: 'acme.tools@okhdfcbank',
    evm_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    qr: 'none',
  });
  const swiss = parse({ qr_iban: 'CH44 3199 9123 0008 8901 2', qr_reference: '21 00000 00003 13947 14300 09017' });
  assert.ok(swiss.success);
  assert.deepEqual(swiss.output.payment, {
    qr_iban: 'CH4431999123000889012',
    qr_reference: '210000000003139471430009017',
    qr: 'auto',
  });
  // Free text stays as sent.
  const text = parse({ reference: 'Invoice 2026-0042, thank you' });
  assert.ok(text.success);
  assert.equal(text.output.payment.reference, 'Invoice 2026-0042, thank you');
});

test('each field is checked by its standard, with the rule in the message and the field in the path', () => {
  const issues = issuesOf({
    iban: 'DE89370400440532013001',
    bic: 'DEUT',
    reference: 'RF19539007547034',
    qr_iban: 'CH9300762011623852957',
    pix_key: '52998224724',
    upi_vpa: 'nobody',
    evm_address: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
    qr: 'always',
  });
  assert.deepEqual(
    issues.map((issue) => issue.path),
    [
      'payment.iban',
      'payment.bic',
      'payment.reference',
      'payment.qr_iban',
      'payment.pix_key',
      'payment.upi_vpa',
      'payment.evm_address',
      'payment.qr',
    ],
  );
  const message = (path: string) => issues.find((issue) => issue.path === path)!.message;
  assert.match(message('payment.iban'), /mod 97/);
  assert.match(message('payment.bic'), /ISO 9362/);
  assert.match(message('payment.reference'), /ISO 11649/);
  assert.match(message('payment.qr_iban'), /QR-IBAN/);
  assert.match(message('payment.pix_key'), /CPF/);
  assert.match(message('payment.upi_vpa'), /UPI/);
  assert.match(message('payment.evm_address'), /EIP-55/);
  assert.match(message('payment.qr'), /auto, none/);
});

test('payment text fields are one line: a line break would shift every later field of a payload', () => {
  assert.deepEqual(
    issuesOf({ account_name: 'Muster\nGmbH' }).map((issue) => issue.path),
    ['payment.account_name'],
  );
  assert.deepEqual(
    issuesOf({ reference: 'a\tb' }).map((issue) => issue.path),
    ['payment.reference'],
  );
  assert.deepEqual(
    issuesOf({ account_name: 'x'.repeat(71) }).map((issue) => issue.path),
    ['payment.account_name'],
  );
  assert.deepEqual(
    issuesOf({ reference: 'x'.repeat(141) }).map((issue) => issue.path),
    ['payment.reference'],
  );
  assert.deepEqual(
    issuesOf({ unknown: 1 }).map((issue) => issue.path),
    ['payment.unknown'],
  );
});

test('Swiss rules between fields (IG 4.3.2), each reported at payment.qr_reference or payment.iban', () => {
  const QR_IBAN = 'CH4431999123000889012';
  const QRR = '210000000003139471430009017';
  const cases: [string, Record<string, string>, string, RegExp][] = [
    ['QR-IBAN without reference', { qr_iban: QR_IBAN }, 'payment.qr_reference', /required with qr_iban/],
    [
      'QR-IBAN with an RF reference',
      { qr_iban: QR_IBAN, qr_reference: 'RF18539007547034' },
      'payment.qr_reference',
      /must be a QR reference \(QRR/,
    ],
    [
      'QRR without QR-IBAN',
      { iban: 'CH9300762011623852957', qr_reference: QRR },
      'payment.qr_reference',
      /needs a QR-IBAN/,
    ],
    [
      'SCOR without a Swiss IBAN',
      { iban: 'DE89370400440532013000', qr_reference: 'RF18539007547034' },
      'payment.qr_reference',
      /CH or LI IBAN/,
    ],
    ['a QR-IBAN in iban', { iban: QR_IBAN }, 'payment.iban', /put it in qr_iban/],
    [
      'a QRR with a wrong check digit',
      { qr_iban: QR_IBAN, qr_reference: '210000000003139471430009018' },
      'payment.qr_reference',
      /modulo 10/,
    ],
  ];
  for (const [name, payment, path, message] of cases) {
    const issues = issuesOf(payment);
    assert.equal(issues.length, 1, `${name}: ${JSON.stringify(issues)}`);
    assert.equal(issues[0]!.path, path, name);
    assert.match(issues[0]!.message, message, name);
  }
  assert.ok(parse({ iban: 'CH9300762011623852957', qr_reference: 'RF18539007547034' }).success, 'SCOR with a CH IBAN');
  assert.ok(
    parse({ qr_iban: QR_IBAN, qr_reference: QRR, iban: 'CH9300762011623852957' }).success,
    'QR-IBAN with QRR, plus an ordinary IBAN',
  );
});
