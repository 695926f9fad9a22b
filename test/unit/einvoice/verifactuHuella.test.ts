import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  altaHashInput,
  altaHuella,
  anulacionHashInput,
  anulacionHuella,
  sha256Upper,
  type AltaHashFields,
  type AnulacionHashFields,
} from '../../../src/einvoice/formats/verifactu/huella.js';
import { isValidNif } from '../../../src/einvoice/formats/verifactu/nif.js';
import { javaUrlEncode, qrUrl, readQrUrl } from '../../../src/einvoice/formats/verifactu/qr.js';
import { recordDate, spanishTimestamp } from '../../../src/einvoice/formats/verifactu/spanishTime.js';

/**
 * AEAT's worked examples, copied from the shared folder's einvoice/verifactu (hash-vectors.json: the hash
 * document's §6.1-6.3, the signature document's R3 record, third-party pairs and two negative
 * vectors; qr-vectors.json: the QR document's example URLs) into test/fixtures/verifactu/.
 */
const read = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/verifactu/${name}`, import.meta.url), 'utf8'));

interface HashVector {
  id: string;
  record_type: string;
  fields?: Record<string, string>;
  input: string;
  expected_sha256: string;
}

test('every alta and anulación vector of hash-vectors.json reproduces: the input string and its huella', () => {
  const vectors = (read('hash-vectors.json') as { vectors: HashVector[] }).vectors;
  let checked = 0;
  for (const vector of vectors) {
    if (vector.record_type === 'RegistroEvento') continue; // event records are a non-VERI*FACTU system's, not written here
    assert.equal(sha256Upper(vector.input), vector.expected_sha256, vector.id);
    if (vector.fields) {
      const built =
        vector.record_type === 'RegistroAlta'
          ? altaHashInput(vector.fields as unknown as AltaHashFields)
          : anulacionHashInput(vector.fields as unknown as AnulacionHashFields);
      assert.equal(built, vector.input, vector.id);
      const huella =
        vector.record_type === 'RegistroAlta'
          ? altaHuella(vector.fields as unknown as AltaHashFields)
          : anulacionHuella(vector.fields as unknown as AnulacionHashFields);
      assert.equal(huella, vector.expected_sha256, vector.id);
    }
    checked += 1;
  }
  assert.ok(checked >= 15, `${checked} vectors`);
  const ids = vectors.map((vector) => vector.id);
  for (const id of ['AEAT-6.1', 'AEAT-6.2', 'AEAT-6.3', 'AEAT-FIRMA-8.1', 'NEG-MDIAGO-two-decimals'])
    assert.ok(ids.includes(id), id);
});

test('AEAT §6.1 by its fields; an amount written 12.350 or a trailing newline changes the huella', () => {
  const fields: AltaHashFields = {
    IDEmisorFactura: '89890001K',
    NumSerieFactura: ' 12345678/G33 ',
    FechaExpedicionFactura: '01-01-2024',
    TipoFactura: 'F1',
    CuotaTotal: '12.35',
    ImporteTotal: '123.45',
    Huella: '',
    FechaHoraHusoGenRegistro: '2024-01-01T19:20:30+01:00',
  };
  assert.equal(altaHuella(fields), '3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60');
  assert.notEqual(altaHuella({ ...fields, CuotaTotal: '12.350' }), altaHuella(fields));
  assert.notEqual(sha256Upper(`${altaHashInput(fields)}\n`), altaHuella(fields));
});

test('every QR vector of qr-vectors.json reproduces, and reads back', () => {
  const { vectors } = read('qr-vectors.json') as {
    vectors: {
      id: string;
      base: string;
      params: { nif: string; numserie: string; fecha: string; importe: string };
      expected_url: string;
    }[];
  };
  assert.ok(vectors.length >= 5);
  for (const vector of vectors) {
    const mode = vector.base.includes('NoVerifactu') ? 'no_verifactu' : 'verifactu';
    const environment = vector.base.startsWith('https://prewww2') ? 'test' : 'production';
    assert.equal(qrUrl(vector.params, mode, environment), vector.expected_url, vector.id);
    assert.deepEqual(readQrUrl(vector.expected_url), { ...vector.params, mode, environment }, vector.id);
  }
});

test('URL encoding is Java URLEncoder’s: space as +, / & + ! ~ encoded, .-*_ kept', () => {
  assert.equal(javaUrlEncode('A/B 1&2+3!~*._-ñ'), 'A%2FB+1%262%2B3%21%7E*._-%C3%B1');
});

test('NIF, NIE and entity NIF check characters', () => {
  for (const nif of [
    '12345678Z',
    '89890001K',
    '87654321X',
    'X1234567L',
    'Y1234567X',
    'Z1234567R',
    'B12345674',
    'A58818501',
    'Q2826000H',
    'P2807900B',
    'N0032484H',
    '00000000T',
  ])
    assert.ok(isValidNif(nif), nif);
  for (const nif of ['12345678A', 'X1234567A', 'B12345675', 'A5881850A', 'Q28260008', '1234567Z', 'I12345674', 'AAAA'])
    assert.equal(isValidNif(nif), false, nif);
});

test('FechaHoraHusoGenRegistro is Spanish time with its offset, winter and summer', () => {
  assert.equal(spanishTimestamp(new Date('2024-01-01T18:20:30.900Z')), '2024-01-01T19:20:30+01:00');
  assert.equal(spanishTimestamp(new Date('2026-07-15T10:00:00Z')), '2026-07-15T12:00:00+02:00');
  assert.equal(spanishTimestamp(new Date('2026-10-25T00:59:59Z')), '2026-10-25T02:59:59+02:00');
  assert.equal(spanishTimestamp(new Date('2026-10-25T01:00:00Z')), '2026-10-25T02:00:00+01:00');
  assert.equal(recordDate('2026-03-09'), '09-03-2026');
});
