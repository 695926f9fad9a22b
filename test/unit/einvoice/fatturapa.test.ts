import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readSignedData } from '../../../src/cms/signedData.js';
import { InputRejected } from '../../../src/errors.js';
import { EXAMPLE_FATTURAPA_REQUEST } from '../../../src/einvoice/formats/fatturapa/example.js';
import {
  codiceFiscaleCheckLetter,
  isCodiceFiscale,
  isPartitaIva,
} from '../../../src/einvoice/formats/fatturapa/identifiers.js';
import { buildFatturaModel } from '../../../src/einvoice/formats/fatturapa/model.js';
import {
  fatturaPAFieldsOf,
  fatturaPAReport,
  produceFatturaPA,
} from '../../../src/einvoice/formats/fatturapa/request.js';
import { modelChecks } from '../../../src/einvoice/formats/fatturapa/sdiChecks.js';
import { latin1 } from '../../../src/einvoice/formats/fatturapa/text.js';
import { fatturaFileName } from '../../../src/einvoice/formats/fatturapa/transmission.js';
import { prepareProfiledEInvoice } from '../../../src/einvoice/prepareEInvoice.js';

describe('Italian identifiers', () => {
  test('partita IVA: the check digit of the first ten', () => {
    for (const valid of ['01234567897', '12345678903', '09876543217', '00000000000'])
      assert.ok(isPartitaIva(valid), valid);
    for (const invalid of ['01234567890', '1234567890', '123456789012', 'AB345678903', '12345678904'])
      assert.equal(isPartitaIva(invalid), false, invalid);
  });

  test('codice fiscale: a person’s check letter (omocodia too), a company’s 11 digits', () => {
    assert.equal(codiceFiscaleCheckLetter('RSSMRA80A01H501'), 'U');
    assert.ok(isCodiceFiscale('RSSMRA80A01H501U'));
    assert.equal(isCodiceFiscale('RSSMRA80A01H501V'), false);
    // Omocodia: digits of the date and place replaced by letters, with their own check letter.
    const omocode = `RSSMRA80A01H50M`;
    assert.ok(isCodiceFiscale(omocode + codiceFiscaleCheckLetter(omocode)));
    assert.equal(isCodiceFiscale('RSSMRA80Z01H501U'), false, 'no month Z');
    assert.ok(isCodiceFiscale('80012345676'));
    assert.equal(isCodiceFiscale('80012345678'), false);
  });
});

describe('the SDI’s arithmetic over the written amounts', () => {
  const checked = prepareProfiledEInvoice(EXAMPLE_FATTURAPA_REQUEST, 'fatturapa');
  const { prepared } = checked;
  const fields = fatturaPAFieldsOf(checked)!;
  const fresh = () => buildFatturaModel(prepared, fields);
  const codes = (model: ReturnType<typeof fresh>) =>
    modelChecks(prepared, fields, model).map((issue) => [issue.code, issue.path]);

  test('the service’s own model passes', () => assert.deepEqual(codes(fresh()), []));

  test('a summary that does not add up, a wrong Imposta, a wrong PrezzoTotale, a rate without summary', () => {
    const taxable = fresh();
    taxable.summaries[0]!.taxable += 101n;
    taxable.summaries[0]!.tax = (taxable.summaries[0]!.taxable * 22n + 50n) / 100n;
    taxable.total = taxable.summaries.reduce((sum, summary) => sum + summary.taxable + summary.tax, 0n);
    assert.deepEqual(codes(taxable), [['00422', 'DatiRiepilogo[0].ImponibileImporto']]);
    const tax = fresh();
    tax.summaries[0]!.tax += 2n;
    tax.total += 2n;
    assert.deepEqual(codes(tax), [['00421', 'DatiRiepilogo[0].Imposta']]);
    const line = fresh();
    line.lines[0]!.total += 2n;
    assert.deepEqual(codes(line), [['00423', 'line_items[0]']]);
    const missing = fresh();
    missing.summaries.pop();
    missing.total = missing.summaries.reduce((sum, summary) => sum + summary.taxable + summary.tax, 0n);
    assert.deepEqual(codes(missing), [['00419', 'DatiRiepilogo']]);
    const total = fresh();
    total.total += 1n;
    assert.deepEqual(codes(total), [['fatturapa_total', 'ImportoTotaleDocumento']]);
  });
});

test('the model the checks built is written once; another call or other fields build their own', () => {
  const written = () => {
    const checked = prepareProfiledEInvoice(EXAMPLE_FATTURAPA_REQUEST, 'fatturapa');
    return { prepared: checked.prepared, fields: fatturaPAFieldsOf(checked)! };
  };
  const reference = written();
  const file = produceFatturaPA(reference.prepared, reference.fields).xml;
  const report = fatturaPAReport(reference.prepared, reference.fields);
  assert.deepEqual(report.withholding, { type: 'RT01', base: '1140.00', amount: '228.00' });
  // Checked (prepareProfiledEInvoice runs checkFatturaPA), then written twice and reported.
  const again = written();
  assert.ok(produceFatturaPA(again.prepared, again.fields).xml.equals(file));
  assert.ok(produceFatturaPA(again.prepared, again.fields).xml.equals(file));
  assert.deepEqual(fatturaPAReport(again.prepared, again.fields), report);
  // The same invoice checked with the withholding, then written without it: the file has none.
  const other = written();
  const { withholding: _withholding, ...without } = other.fields;
  const xml = produceFatturaPA(other.prepared, without).xml.toString('utf8');
  assert.ok(!xml.includes('<DatiRitenuta>'));
  assert.ok(file.toString('utf8').includes('<DatiRitenuta>'));
  assert.equal(fatturaPAReport(other.prepared, without).withholding, null);
});

test('text FatturaPA cannot carry becomes its closest Latin-1 form', () => {
  assert.equal(latin1('Łódź “Straße” – 10 €\tok'), 'Lódz "Straße" - 10 EUR ok');
  assert.equal(latin1('日本'), '??');
});

test('the file name: country, transmitter id, underscore, progressive', () => {
  const seller = { name: 'A', vat_id: 'IT01234567897' };
  assert.equal(
    fatturaFileName(seller, 'FT 2026/42', { transmission_format: 'FPR12', regime_fiscale: 'RF01' }),
    'IT01234567897_02642.xml',
  );
  assert.equal(
    fatturaFileName(seller, 'x', {
      transmission_format: 'FPR12',
      regime_fiscale: 'RF01',
      progressive: 'A1',
      transmitter: { country: 'IT', id: 'RSSMRA80A01H501U' },
    }),
    'ITRSSMRA80A01H501U_A1.xml',
  );
});

test('a signed envelope over the caller’s bound, or with bytes after it, is refused before reading', () => {
  const refusal = (bytes: Uint8Array, max: number) => {
    try {
      readSignedData(bytes, max);
    } catch (error) {
      assert.ok(error instanceof InputRejected);
      return error.code;
    }
    return 'read';
  };
  assert.equal(refusal(new Uint8Array([0x30, 0x00]), 1), 'p7m_too_large');
  assert.equal(refusal(new Uint8Array([0x30, 0x00, 0x00]), 100), 'p7m_malformed');
  assert.equal(refusal(new Uint8Array([0x30, 0x03, 0x06, 0x01, 0x2a]), 100), 'p7m_malformed');
});
