import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { prepareBatch } from '../../../src/batch/batchRequest.js';
import { checkEInvoice } from '../../../src/einvoice/prepareEInvoice.js';
import { buildEInvoiceValidation } from '../../../src/einvoice/validationReport.js';
import { readRecords } from '../../../src/einvoice/formats/verifactu/reader.js';
import { InputRejected } from '../../../src/errors.js';
import { VERIFACTU_EXAMPLES } from '../../fixtures/verifactuExamples.js';

/**
 * VERI*FACTU as a registry module: the free validate under profile verifactu answers AEAT's checks
 * and the huella the record would carry at the request's moment; a batch in format verifactu writes
 * one record per invoice, chained in the batch's order, each huella recomputed here from the
 * specification's string (AEAT huella spec 0.1.2 §5: the fields name=value joined by &, SHA-256,
 * upper-case hexadecimal), not by the service's own code.
 */
const NOW = '2026-12-01T09:30:00.000Z';
const F1 = VERIFACTU_EXAMPLES['F1 with 21 % and 10 %']!;
const FIRST = VERIFACTU_EXAMPLES['F1 first record of the system']!;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').toUpperCase();
const altaInput = (r: {
  issuer_nif: string;
  invoice_number: string;
  issue_date: string;
  invoice_type: string | null;
  cuota_total: string | null;
  importe_total: string | null;
  previous: string;
  generated_at: string;
}) =>
  `IDEmisorFactura=${r.issuer_nif}&NumSerieFactura=${r.invoice_number}&FechaExpedicionFactura=${r.issue_date}` +
  `&TipoFactura=${r.invoice_type}&CuotaTotal=${r.cuota_total}&ImporteTotal=${r.importe_total}` +
  `&Huella=${r.previous}&FechaHoraHusoGenRegistro=${r.generated_at}`;

test('validate with profile verifactu: no issue, and the huella of the record as of the request', () => {
  const checked = checkEInvoice({ ...F1, profile: 'verifactu' }, undefined, new Date(NOW));
  assert.deepEqual(checked.issues, []);
  const report = buildEInvoiceValidation(checked.prepared, checked.issues, checked.profile, checked.own) as unknown as {
    valid: boolean;
    verifactu: Record<string, string | null>;
  };
  assert.equal(report.valid, true);
  const record = report.verifactu;
  assert.equal(record.generated_at, '2026-12-01T10:30:00+01:00');
  assert.equal(record.importe_total, '1002.10');
  assert.equal(record.cuota_total, '171.10');
  const expected = sha256(
    altaInput({
      issuer_nif: 'B12345674',
      invoice_number: 'F2026-0042',
      issue_date: '30-11-2026',
      invoice_type: 'F1',
      cuota_total: '171.10',
      importe_total: '1002.10',
      previous: '3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60',
      generated_at: '2026-12-01T10:30:00+01:00',
    }),
  );
  assert.equal(record.huella, expected);
  assert.match(record.qr_url ?? '', /ValidarQR\?nif=B12345674&numserie=F2026-0042&fecha=30-11-2026&importe=1002.10$/);
});

test('validate with profile verifactu answers AEAT codes: a wrong NIF check character is 4116', () => {
  const bad = { ...F1, profile: 'verifactu', seller: { ...(F1.seller as object), vat_id: 'ESB12345675' } };
  const checked = checkEInvoice(bad, undefined, new Date(NOW));
  assert.deepEqual(
    checked.issues.map((issue) => [issue.code, issue.path]),
    [['4116', 'seller.vat_id']],
  );
});

test('a verifactu batch chains its records in order; each huella recomputes from the spec', () => {
  const numbers = ['F2026-0101', 'F2026-0102', 'F2026-0103', 'F2026-0104', 'F2026-0105'];
  const invoices = numbers.map((invoice_number, index) => ({
    ...structuredClone(index === 0 ? FIRST : { ...F1, verifactu: { ...F1.verifactu, previous: undefined } }),
    invoice_number,
  }));
  const batch = prepareBatch({ format: 'verifactu', invoices }, { now: NOW });
  const records = batch.ownFiles!.map((file) => {
    const report = readRecords(Buffer.from(file.written.file).toString('utf8'));
    assert.equal(report.records.length, 1);
    return report.records[0]!;
  });
  assert.deepEqual(
    records.map((record) => record.invoice_number),
    numbers,
  );
  assert.equal(records[0]!.chain.first_record, true);
  records.forEach((record, index) => {
    const previous = index === 0 ? '' : records[index - 1]!.huella.stated;
    const computed = sha256(altaInput({ ...record, previous }));
    assert.equal(record.huella.stated, computed, record.invoice_number);
    if (index === 0) return;
    const before = records[index - 1]!;
    assert.deepEqual(record.chain.previous, {
      issuer_nif: before.issuer_nif,
      invoice_number: before.invoice_number,
      issue_date: before.issue_date,
      huella: before.huella.stated,
    });
  });
  // Each file's header states its huella, which the next record names.
  assert.deepEqual(
    batch.ownFiles!.map((file) => file.written.headers?.['X-Verifactu-Huella']),
    records.map((record) => record.huella.stated),
  );
});

test('a batch item that names another previous record is refused, naming the field', () => {
  const invoices = [FIRST, { ...F1, invoice_number: 'F2026-0200' }];
  assert.throws(
    () => prepareBatch({ format: 'verifactu', invoices }, { now: NOW }),
    (error: unknown) =>
      error instanceof InputRejected &&
      error.issues?.some(
        (issue) => issue.path === 'invoices[1].verifactu.previous' && issue.code === 'verifactu_batch_chain',
      ) === true,
  );
});
