import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  gs1CheckDigitOk,
  IDENTIFIER_SCHEMES,
  kboOk,
  leitwegIdOk,
  luhnOk,
} from '../../../src/invoice/partyIdentifiers.js';

/** Each scheme's own format, on published identifiers and one-digit changes of them. */
const valid = (scheme: string, id: string) => IDENTIFIER_SCHEMES.get(scheme)!.valid(id);

test('GLN: GS1 check digit', () => {
  assert.ok(gs1CheckDigitOk('4000001123452'));
  assert.ok(valid('0088', '5790000435951'));
  assert.ok(!valid('0088', '5790000435952'), 'wrong check digit');
  assert.ok(!valid('0088', '579000043595'), '12 digits');
});

test('SIREN and SIRET: Luhn, 9 and 14 digits', () => {
  assert.ok(luhnOk('732829320'));
  assert.ok(valid('0002', '732829320'));
  assert.ok(!valid('0002', '732829321'));
  assert.ok(!valid('0002', '73282932'), '8 digits');
  assert.ok(valid('0009', '73282932000074'));
  assert.ok(!valid('0009', '73282932000075'));
});

test('Belgian KBO: 97 − (first eight mod 97); the VAT number carries it after BE', () => {
  assert.ok(kboOk('0403170701'));
  assert.ok(!kboOk('0403170702'));
  assert.ok(valid('0208', '0123456749'));
  assert.ok(valid('9925', 'BE0403170701'));
  assert.ok(!valid('9925', 'BE0403170702'));
});

test('Leitweg-ID: format and ISO/IEC 7064 MOD 97-10 check digits (KoSIT test cases)', () => {
  for (const id of ['04011000-12345-03', '04011000-12346-97', '04011000-12352-79', '991-33333TEST-33'])
    assert.ok(leitwegIdOk(id), id);
  assert.ok(!leitwegIdOk('04011000-12345-04'));
  assert.ok(!leitwegIdOk('04011000 12345 03'));
  assert.ok(!valid('0204', '1-12345-03'), 'coarse address of one digit');
});

test('Norwegian organisation number (mod 11), Swedish (Luhn), e-mail, French 0225', () => {
  assert.ok(valid('0192', '974760673'));
  assert.ok(!valid('0192', '974760674'));
  assert.ok(valid('0007', '5560360793'));
  assert.ok(!valid('0007', '5560360794'));
  assert.ok(valid('EM', 'invoices@example.com'));
  assert.ok(!valid('EM', 'invoices@example'));
  assert.ok(valid('0225', '732829320_FACTURES'));
  assert.ok(!valid('0225', '732829320 FACTURES'));
});
