import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { checkBic } from '../../../../src/invoice/paymentQr/bic.js';
import { checkRfReference, looksLikeRfReference } from '../../../../src/invoice/paymentQr/creditorReference.js';
import { checkEvmAddress, toChecksumAddress } from '../../../../src/invoice/paymentQr/evmAddress.js';
import { checkIban, formatIban, IBAN_LENGTHS } from '../../../../src/invoice/paymentQr/iban.js';
import { mod97 } from '../../../../src/invoice/paymentQr/mod97.js';
import { checkPixKey, isCnpj, isCpf } from '../../../../src/invoice/paymentQr/pixKey.js';
import {
  checkQrIban,
  checkQrReference,
  formatQrReference,
  isQrIban,
  mod10Recursive,
} from '../../../../src/invoice/paymentQr/swissReference.js';
import { checkUpiVpa } from '../../../../src/invoice/paymentQr/upiVpa.js';

// An oracle written apart from mod97.ts: the whole number in a bigint, letters A=10 … Z=35.
const asNumber = (text: string) => BigInt([...text].map((char) => Number.parseInt(char, 36).toString()).join(''));
const ibanWithCheckDigits = (country: string, bban: string) =>
  `${country}${String(98n - (asNumber(`${bban}${country}00`) % 97n)).padStart(2, '0')}${bban}`;
const rfWithCheckDigits = (body: string) =>
  `RF${String(98n - (asNumber(`${body}RF00`) % 97n)).padStart(2, '0')}${body}`;
const SEED = 18;

const fails = (result: { ok: boolean }) => assert.equal(result.ok, false, JSON.stringify(result));

test('IBAN: published examples pass, in electronic or printed form', () => {
  const valid = [
    'DE89370400440532013000',
    'GB82WEST12345698765432',
    'FR1420041010050500013M02606',
    'NL91ABNA0417164300',
    'BE68539007547034',
    'BE72000000001616',
    'CH9300762011623852957',
    'LI21088100002324013AA',
    'AT611904300234573201',
    'IT60X0542811101000000123456',
    'ES9121000418450200051332',
    'NO9386011117947',
    'MT84MALT011000012345MTLCAST001S',
  ];
  for (const iban of valid) assert.deepEqual(checkIban(iban), { ok: true, value: iban }, iban);
  assert.deepEqual(checkIban('de89 3704 0044 0532 0130 00'), { ok: true, value: 'DE89370400440532013000' });
});

test('IBAN: wrong check digits, length, country or characters are refused with the rule named', () => {
  const reason = (iban: string) => {
    const result = checkIban(iban);
    assert.equal(result.ok, false, iban);
    return result.ok ? '' : result.reason;
  };
  assert.match(reason('DE89370400440532013001'), /check digits.*mod 97/);
  assert.match(reason('DE88370400440532013000'), /check digits/);
  assert.match(reason('DE8937040044053201300'), /22 characters long for country DE/);
  assert.match(reason('US64SVBKUS6S3300958879'), /SEPA country or CH\/LI; US/);
  assert.match(reason('DE89-3704-0044-0532-0130-00'), /must be an IBAN/);
  assert.match(reason(''), /must be an IBAN/);
});

test('IBAN: every single-character change of a valid IBAN is caught (property, independent bigint oracle)', () => {
  fc.assert(
    fc.property(fc.stringMatching(/^\d{18}$/), fc.nat(21), fc.integer({ min: 1, max: 9 }), (bban, position, delta) => {
      const iban = ibanWithCheckDigits('DE', bban);
      assert.ok(checkIban(iban).ok, `generated ${iban}`);
      if (position < 2) return; // the country letters: another country or length rule
      const digit = (Number(iban[position]) + delta) % 10;
      const changed = iban.slice(0, position) + digit + iban.slice(position + 1);
      fails(checkIban(changed));
    }),
    { seed: SEED, numRuns: 500 },
  );
});

test('IBAN length table: the SEPA countries plus CH and LI, lengths as registered', () => {
  const sepa = [
    'AD',
    'AL',
    'AT',
    'BE',
    'BG',
    'CH',
    'CY',
    'CZ',
    'DE',
    'DK',
    'EE',
    'ES',
    'FI',
    'FR',
    'GB',
    'GI',
    'GR',
    'HR',
    'HU',
    'IE',
    'IS',
    'IT',
    'LI',
    'LT',
    'LU',
    'LV',
    'MC',
    'MD',
    'ME',
    'MK',
    'MT',
    'NL',
    'NO',
    'PL',
    'PT',
    'RO',
    'SE',
    'SI',
    'SK',
    'SM',
    'VA',
  ];
  assert.deepEqual(Object.keys(IBAN_LENGTHS).sort(), sepa);
  const spot: Record<string, number> = {
    DE: 22,
    FR: 27,
    CH: 21,
    LI: 21,
    NO: 15,
    MT: 31,
    BE: 16,
    NL: 18,
    GB: 22,
    IT: 27,
  };
  for (const [country, length] of Object.entries(spot)) assert.equal(IBAN_LENGTHS[country], length, country);
  assert.equal(formatIban('CH4431999123000889012'), 'CH44 3199 9123 0008 8901 2');
});

test('mod97 agrees with the bigint remainder', () => {
  fc.assert(
    fc.property(fc.stringMatching(/^[0-9A-Z]{1,40}$/), (text) =>
      assert.equal(BigInt(mod97(text)), asNumber(text) % 97n),
    ),
    { seed: SEED, numRuns: 500 },
  );
});

test('BIC: ISO 9362 shape, 8 or 11 characters', () => {
  for (const bic of ['DEUTDEFF', 'DEUTDEFF500', 'COBADEFFXXX', 'BPOTBEB1', 'UBSWCHZH80A'])
    assert.deepEqual(checkBic(bic), { ok: true, value: bic });
  assert.deepEqual(checkBic('deutdeff'), { ok: true, value: 'DEUTDEFF' });
  for (const bad of ['DEUTDEF', 'DEUTDEFF50', 'DEU1DEFF', 'DEUTD3FF', 'DEUTDEFF5001', 'DEUT-DEFF'])
    fails(checkBic(bad));
});

test('RF creditor reference (ISO 11649): examples, wrong check digits, shape', () => {
  assert.deepEqual(checkRfReference('RF18539007547034'), { ok: true, value: 'RF18539007547034' });
  assert.deepEqual(checkRfReference('rf18 5390 0754 7034'), { ok: true, value: 'RF18539007547034' });
  fails(checkRfReference('RF19539007547034'));
  fails(checkRfReference('RF18539007547035'));
  fails(checkRfReference('RF18'));
  fails(checkRfReference('RF1812345678901234567890123')); // 23 characters after the check digits
  assert.equal(looksLikeRfReference('RF18 5390'), true);
  assert.equal(looksLikeRfReference('Invoice RF-1'), false);
  fc.assert(
    fc.property(fc.stringMatching(/^[0-9A-Z]{1,21}$/), (body) => {
      const reference = rfWithCheckDigits(body);
      assert.deepEqual(checkRfReference(reference), { ok: true, value: reference });
      const wrong = `RF${String((Number(reference.slice(2, 4)) + 1) % 100).padStart(2, '0')}${body}`;
      fails(checkRfReference(wrong));
    }),
    { seed: SEED, numRuns: 500 },
  );
});

test('Swiss QR-IBAN: institution id 30000–31999 of a valid CH/LI IBAN', () => {
  assert.deepEqual(checkQrIban('CH44 3199 9123 0008 8901 2'), { ok: true, value: 'CH4431999123000889012' });
  assert.equal(isQrIban('CH4431999123000889012'), true);
  assert.equal(isQrIban('CH9300762011623852957'), false);
  const ordinary = checkQrIban('CH9300762011623852957');
  assert.ok(!ordinary.ok && /QR-IBAN/.test(ordinary.reason));
  fails(checkQrIban('CH4431999123000889013')); // check digits
  // The boundaries of the range, with check digits computed by the oracle.
  assert.equal(isQrIban(ibanWithCheckDigits('CH', '30000123456789012')), true);
  assert.equal(isQrIban(ibanWithCheckDigits('CH', '31999123456789012')), true);
  assert.equal(isQrIban(ibanWithCheckDigits('CH', '29999123456789012')), false);
  assert.equal(isQrIban(ibanWithCheckDigits('CH', '32000123456789012')), false);
  assert.equal(isQrIban(ibanWithCheckDigits('DE', '310000000000000000')), false);
});

test('QR reference (QRR): 27 digits with a modulo 10 recursive check digit', () => {
  assert.deepEqual(checkQrReference('210000000003139471430009017'), { ok: true, value: '210000000003139471430009017' });
  assert.deepEqual(checkQrReference('21 00000 00003 13947 14300 09017'), {
    ok: true,
    value: '210000000003139471430009017',
  });
  assert.equal(formatQrReference('210000000003139471430009017'), '21 00000 00003 13947 14300 09017');
  assert.equal(mod10Recursive('21000000000313947143000901'), 7);
  fails(checkQrReference('210000000003139471430009018'));
  fails(checkQrReference('21000000000313947143000901')); // 26 digits
  fails(checkQrReference('000000000000000000000000000'));
  fails(checkQrReference('RF18539007547034'));
  // Modulo 10 recursive catches every single-digit error (not every swap of neighbours: 74 ↔ 47
  // can pass, which is why the IBAN and RF checks use mod 97).
  fc.assert(
    fc.property(fc.stringMatching(/^\d{26}$/), fc.nat(26), fc.integer({ min: 1, max: 9 }), (body, position, delta) => {
      const reference = body + mod10Recursive(body);
      if (/^0+$/.test(reference)) return;
      assert.ok(checkQrReference(reference).ok);
      const changed =
        reference.slice(0, position) + ((Number(reference[position]) + delta) % 10) + reference.slice(position + 1);
      fails(checkQrReference(changed));
    }),
    { seed: SEED, numRuns: 500 },
  );
});

test('CPF and CNPJ check digits (numeric and the alphanumeric CNPJ of 2026)', () => {
  for (const cpf of ['52998224725', '11144477735']) assert.equal(isCpf(cpf), true, cpf);
  for (const cpf of ['52998224724', '52998224715', '11111111111', '5299822472']) assert.equal(isCpf(cpf), false, cpf);
  for (const cnpj of ['11222333000181', '12ABC34501DE35']) assert.equal(isCnpj(cnpj), true, cnpj);
  for (const cnpj of ['11222333000182', '11222333000171', '00000000000000', '12ABC34501DE36'])
    assert.equal(isCnpj(cnpj), false, cnpj);
});

test('PIX keys: each type, its normal form, and refusals', () => {
  const ok = (input: string, type: string, value = input) =>
    assert.deepEqual(checkPixKey(input), { ok: true, value: { type, value } }, input);
  ok('fulano@example.com', 'email');
  ok('+5561988887777', 'phone');
  ok('+551133334444', 'phone');
  ok('52998224725', 'cpf');
  ok('529.982.247-25', 'cpf', '52998224725');
  ok('11222333000181', 'cnpj');
  ok('11.222.333/0001-81', 'cnpj', '11222333000181');
  ok('12.ABC.345/01DE-35', 'cnpj', '12ABC34501DE35');
  ok('0b9f2f1e-3c4d-4e5f-8a6b-7c8d9e0f1a2b', 'evp');
  ok('0B9F2F1E-3C4D-4E5F-8A6B-7C8D9E0F1A2B', 'evp', '0b9f2f1e-3c4d-4e5f-8a6b-7c8d9e0f1a2b');
  const reason = (input: string) => {
    const result = checkPixKey(input);
    assert.equal(result.ok, false, input);
    return result.ok ? '' : result.reason;
  };
  assert.match(reason('52998224724'), /CPF.*check digits/);
  assert.match(reason('11222333000182'), /CNPJ.*check digits/);
  assert.match(reason('+14155552671'), /\+55/);
  assert.match(reason('+5561988887'), /phone/);
  assert.match(reason(`${'a'.repeat(70)}@example.com`), /77 characters/);
  assert.match(reason('123e4567-e12b-12d1-a456-426655440000'), /UUID v4/);
  assert.match(reason('5561988887777'), /must be a PIX key/);
});

test('UPI address: name@handle', () => {
  for (const vpa of ['acme.tools@okhdfcbank', 'shop-42@ybl', 'a_b@upi', '9876543210@paytm'])
    assert.deepEqual(checkUpiVpa(vpa), { ok: true, value: vpa });
  for (const bad of [
    'acmeupi',
    '@okhdfcbank',
    'acme@',
    'a@upi',
    'ac me@upi',
    'acme@ok.hdfc',
    'acme@@upi',
    'acme@1bank',
  ])
    fails(checkUpiVpa(bad));
});

test('EVM address: EIP-55 checksummed only; lower case, wrong case, zero address refused', () => {
  // The test vectors of EIP-55 (all four groups, including its all-caps and all-lower checksums).
  const vectors = [
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    '0xde709f2102306220921060314715629080e2fb77',
    '0x27b1fdb04752bbc536007a920d24acb045561c26',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];
  for (const address of vectors) {
    assert.equal(toChecksumAddress(address.toLowerCase()), address);
    assert.deepEqual(checkEvmAddress(address), { ok: true, value: address });
  }
  const reason = (input: string) => {
    const result = checkEvmAddress(input);
    assert.equal(result.ok, false, input);
    return result.ok ? '' : result.reason;
  };
  assert.match(reason('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'), /no checksum/);
  assert.match(reason('0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED'), /no checksum/);
  assert.match(reason('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'), /fails its EIP-55 checksum/);
  assert.match(reason('0x0000000000000000000000000000000000000000'), /zero address/);
  assert.match(reason('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA'), /40 hex digits/);
  assert.match(reason('5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00'), /40 hex digits/);
});
