import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkVerifactuRequest } from '../../../src/einvoice/formats/verifactu/request.js';
import { preparePrintedEInvoice, preparePrintedInvoice } from '../../../src/einvoice/printing.js';
import { describeProfiles } from '../../../src/einvoice/profiles.js';
import { InputRejected } from '../../../src/errors.js';
import { buildTotalsReport } from '../../../src/invoice/totalsReport.js';
import { loadLabelCatalogs } from '../../../src/render/labelCatalogs.js';
import { PROJECT_ROOT } from '../../../src/render/templates.js';
import { buildInvoiceView } from '../../../src/render/viewModel.js';
import { TEST_SETTINGS, VERIFACTU_EXAMPLES } from '../../fixtures/verifactuExamples.js';

/**
 * VERI*FACTU's printing hook through the generic printing of the invoice PDFs (src/einvoice/printing.ts):
 * /v1/invoice.pdf and /v1/e-invoice/factur-x.pdf print the record's QR tributario; the equivalence
 * surcharge is a row of its own and in the total, so the printed total is the record's ImporteTotal;
 * every refusal is a 400 before payment naming its field.
 */
const NOW = { now: TEST_SETTINGS.now.toISOString() };
const F1 = VERIFACTU_EXAMPLES['F1 with 21 % and 10 %']!;
const SURCHARGE = VERIFACTU_EXAMPLES['F1 with equivalence surcharge']!;
// EN 16931 asks a due date (or payment instructions) of an invoice with an amount due (BR-CO-25).
const HYBRID = { ...F1, due_date: '2026-12-30' };
const catalogs = loadLabelCatalogs(PROJECT_ROOT);

const recordOf = (request: unknown) => {
  const { record } = checkVerifactuRequest(request, { ...TEST_SETTINGS, environment: 'production' });
  assert.ok(record.kind === 'alta');
  return record;
};

const refusal = (run: () => unknown): { code: string; issues: [string, string][] } => {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof InputRejected, String(error));
    return { code: error.code, issues: (error.issues ?? []).map((issue) => [issue.code, issue.path]) };
  }
  assert.fail('not refused');
};

test('invoice.pdf: the page-top code is the record’s QR URL, AEAT’s caption and legend in Spanish', () => {
  const prepared = preparePrintedInvoice(F1, NOW);
  assert.deepEqual(prepared.pageTopCode, {
    text: recordOf(F1).qrUrl,
    caption: 'QR tributario:',
    legend: 'VERI*FACTU',
    lang: 'es',
  });
  assert.equal(prepared.surcharges?.length ?? 0, 0);
  const noVerifactu = preparePrintedInvoice({ ...F1, verifactu: { ...F1.verifactu, mode: 'no_verifactu' } }, NOW);
  assert.equal(noVerifactu.pageTopCode?.legend, null);
  assert.match(noVerifactu.pageTopCode?.text ?? '', /ValidarQRNoVerifactu\?/);
});

test('the equivalence surcharge: its rows, and a total that is the record’s ImporteTotal and the QR’s importe', () => {
  const request = { ...SURCHARGE, locale: 'es-ES', payment: { iban: 'ES9121000418450200051332' } };
  const prepared = preparePrintedInvoice(request, NOW);
  const record = recordOf(SURCHARGE);
  const report = buildTotalsReport(prepared);
  // 800 × 5.2 % = 41.60; 31 × 1.4 % = 0.434 → 0.43; 831.00 + 171.10 + 42.03 = 1044.13.
  assert.equal(record.importeTotal, '1044.13');
  assert.equal(report.total.decimal, record.importeTotal);
  assert.equal(new URL(prepared.pageTopCode!.text).searchParams.get('importe'), record.importeTotal);
  assert.equal(report.balance_due.decimal, '1044.13');
  assert.deepEqual(
    report.surcharges?.map((row) => [row.rate, row.taxable.decimal, row.amount.decimal]),
    [
      ['5.2', '800.00', '41.60'],
      ['1.4', '31.00', '0.43'],
    ],
  );
  // The tax stays VAT's; the payment code pays the total with the surcharge.
  assert.equal(report.tax.decimal, '171.10');
  assert.match(report.payment_qr?.payload ?? '', /\nEUR1044\.13\n/);

  const spanish = buildInvoiceView(prepared, catalogs);
  assert.deepEqual(
    // Intl writes a no-break space before the per cent sign.
    spanish.totals.taxes.map((row) => row.label.replace(/\s/gu, ' ')),
    ['IVA (21 %)', 'IVA (10 %)', 'Recargo de equivalencia (5,2 %)', 'Recargo de equivalencia (1,4 %)'],
  );
  assert.equal(spanish.totals.total, report.total.formatted);
  assert.deepEqual(
    spanish.vatBreakdown?.slice(2).map((row) => [row.category, row.rate.replace(/\s/gu, ' '), row.tax]),
    [
      ['Recargo de equivalencia', '5,2 %', report.surcharges![0]!.amount.formatted],
      ['Recargo de equivalencia', '1,4 %', report.surcharges![1]!.amount.formatted],
    ],
  );
  const english = buildInvoiceView(preparePrintedInvoice({ ...request, locale: 'en' }, NOW), catalogs);
  assert.equal(english.totals.taxes[2]!.label.split(' (')[0], 'Equivalence surcharge');
  assert.equal(english.totalsRows, spanish.totalsRows);
});

test('a credit note prints its surcharge positive, as its totals, against the record’s negative ImporteTotal', () => {
  const request = {
    ...SURCHARGE,
    invoice_number: 'R2026-0010',
    document_type: 'credit_note',
    preceding_invoice: { number: 'F2026-0047', issue_date: '2026-11-20' },
    verifactu: { ...SURCHARGE.verifactu, invoice_type: undefined },
  };
  const report = buildTotalsReport(preparePrintedInvoice(request, NOW));
  assert.equal(recordOf(request).importeTotal, '-1044.13');
  assert.equal(report.total.decimal, '1044.13');
  assert.deepEqual(
    report.surcharges?.map((row) => row.amount.decimal),
    ['41.60', '0.43'],
  );
});

test('factur-x.pdf: EN 16931 and AEAT both checked, the same QR printed', () => {
  const { prepared, profile } = preparePrintedEInvoice(HYBRID, NOW);
  assert.equal(profile, 'en16931');
  assert.equal(prepared.pageTopCode?.text, recordOf(HYBRID).qrUrl);
  // Without the due date EN 16931 refuses first, as before.
  assert.equal(refusal(() => preparePrintedEInvoice(F1, NOW)).code, 'en16931_rules_failed');
  // A Spanish refusal is the same 400 as on invoice.pdf, with AEAT's code.
  const badNif = { ...HYBRID, seller: { ...(F1.seller as object), vat_id: 'ESB12345675' } };
  const onFacturX = refusal(() => preparePrintedEInvoice(badNif, NOW));
  const onPdf = refusal(() => preparePrintedInvoice(badNif, NOW));
  assert.deepEqual(onFacturX, onPdf);
  assert.equal(onPdf.code, 'einvoice_rules_failed');
  assert.ok(
    onPdf.issues.some(([code, path]) => code.includes('4116') && path === 'seller.vat_id'),
    String(onPdf.issues),
  );
});

test('factur-x.pdf refuses a surcharge the XML cannot carry, naming the group; the profile verifactu stays refused', () => {
  const surcharged = refusal(() => preparePrintedEInvoice({ ...SURCHARGE, due_date: '2026-12-30' }, NOW));
  assert.deepEqual(surcharged.issues, [
    ['surcharge_not_in_en16931', 'verifactu.vat_groups[0].surcharge_rate'],
    ['surcharge_not_in_en16931', 'verifactu.vat_groups[1].surcharge_rate'],
  ]);
  const own = refusal(() => preparePrintedEInvoice({ ...HYBRID, profile: 'verifactu' }, NOW));
  assert.deepEqual(own.issues, [['profile_format', 'profile']]);
});

test('a malformed object and a malformed invoice are one 400 with both; a cancellation has no QR to print', () => {
  for (const prepare of [preparePrintedInvoice, preparePrintedEInvoice]) {
    const both = refusal(() => prepare({ ...HYBRID, currency: 'XXX', verifactu: { mode: 'sometimes' } }, NOW));
    assert.deepEqual(
      both.issues.map(([, path]) => path),
      ['verifactu.mode', 'currency'],
    );
    const cancel = refusal(() =>
      prepare({ ...HYBRID, verifactu: { ...HYBRID.verifactu, record: 'cancellation' } }, NOW),
    );
    assert.deepEqual(cancel.issues, [['verifactu_cancellation_pdf', 'verifactu.record']]);
  }
});

test('GET /v1/schema lists the verifactu object with the routes that take it and its field notes, from the module', () => {
  const entry = describeProfiles().profiles.find((profile) => profile.profile === 'verifactu');
  const object = entry?.request_object;
  assert.ok(object);
  assert.equal(object.field, 'verifactu');
  assert.deepEqual(object.routes, [
    '/v1/e-invoice/verifactu.xml',
    '/v1/e-invoice/validate',
    '/v1/invoice.pdf',
    '/v1/invoice/validate',
    '/v1/e-invoice/factur-x.pdf',
  ]);
  assert.match(object.prints ?? '', /QR tributario/);
  const paths = object.fields.map((note) => note.path);
  for (const path of ['verifactu.invoice_type', 'verifactu.vat_groups[].surcharge_rate', 'verifactu.previous.huella'])
    assert.ok(paths.includes(path), path);
  // The formats without an object of their own have none; FA(3)'s is listed, without the printing routes.
  assert.equal(describeProfiles().profiles.find((profile) => profile.profile === 'en16931')?.request_object, null);
  const ksef = describeProfiles().profiles.find((profile) => profile.profile === 'ksef')?.request_object;
  assert.deepEqual(ksef?.routes, ['/v1/e-invoice/ksef.xml', '/v1/e-invoice/validate']);
});
