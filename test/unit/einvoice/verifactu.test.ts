import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkVerifactuRequest, verifactuXml } from '../../../src/einvoice/formats/verifactu/request.js';
import { readRecords } from '../../../src/einvoice/formats/verifactu/reader.js';
import { qrUrl } from '../../../src/einvoice/formats/verifactu/qr.js';
import type { JsonAnswer } from '../../support/json.js';
import { TEST_SETTINGS, VERIFACTU_EXAMPLES } from '../../fixtures/verifactuExamples.js';

/** The record of each example: no issue, its huella recomputed by the reader, its QR URL built by hand. */

const issuesOf = (request: unknown) =>
  checkVerifactuRequest(request, TEST_SETTINGS).issues.map((issue) => [issue.code, issue.path]);

test('every example passes every check, and reads back with its own huella', () => {
  for (const [name, example] of Object.entries(VERIFACTU_EXAMPLES)) {
    const checked = checkVerifactuRequest(example, TEST_SETTINGS);
    assert.deepEqual(checked.issues, [], name);
    const report = readRecords(verifactuXml(checked), { environment: 'test' });
    assert.equal(report.records.length, 1, name);
    assert.equal(report.records[0]!.huella.computed, checked.record.huella, name);
    assert.ok(report.huellas_match, name);
  }
});

test('the F1 example: the record as AEAT specifies it, the QR URL as built by hand', () => {
  const checked = checkVerifactuRequest(VERIFACTU_EXAMPLES['F1 with 21 % and 10 %'], TEST_SETTINGS);
  const xml = verifactuXml(checked);
  assert.equal(checked.record.kind, 'alta');
  if (checked.record.kind !== 'alta') return;
  // 800.00 at 21 % = 168.00; 31.00 at 10 % = 3.10.
  assert.equal(checked.record.cuotaTotal, '171.10');
  assert.equal(checked.record.importeTotal, '1002.10');
  assert.equal(checked.record.generatedAt, '2026-12-01T10:30:00+01:00');
  assert.equal(
    checked.record.qrUrl,
    'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345674&numserie=F2026-0042&fecha=30-11-2026&importe=1002.10',
  );
  for (const fragment of [
    '<sum1:IDEmisorFactura>B12345674</sum1:IDEmisorFactura>',
    '<sum1:TipoFactura>F1</sum1:TipoFactura>',
    '<sum1:NIF>A58818501</sum1:NIF>',
    '<sum1:CalificacionOperacion>S1</sum1:CalificacionOperacion>',
    '<sum1:TipoImpositivo>21.00</sum1:TipoImpositivo>',
    '<sum1:CuotaRepercutida>168.00</sum1:CuotaRepercutida>',
    '<sum1:ImporteTotal>1002.10</sum1:ImporteTotal>',
    '<sum1:NumSerieFactura>F2026-0041</sum1:NumSerieFactura>',
    '<sum1:Huella>3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60</sum1:Huella>',
    `<sum1:Huella>${checked.record.huella}</sum1:Huella>`,
  ])
    assert.ok(xml.includes(fragment), fragment);
});

test('the no-VERI*FACTU example: ValidarQRNoVerifactu, SOAP envelope', () => {
  const checked = checkVerifactuRequest(
    VERIFACTU_EXAMPLES['F1 no VERI*FACTU, SOAP envelope, with operation date'],
    TEST_SETTINGS,
  );
  assert.ok(checked.record.kind === 'alta' && checked.record.qrUrl.includes('/ValidarQRNoVerifactu?nif=B12345674'));
  const xml = verifactuXml(checked);
  assert.ok(xml.includes('<soapenv:Envelope') && xml.includes('<sum1:FechaOperacion>15-11-2026</sum1:FechaOperacion>'));
});

test('a credit note R4 writes negative amounts by differences and names the preceding invoice', () => {
  const checked = checkVerifactuRequest(VERIFACTU_EXAMPLES['R4 credit note from preceding_invoice'], TEST_SETTINGS);
  const xml = verifactuXml(checked);
  for (const fragment of [
    '<sum1:TipoRectificativa>I</sum1:TipoRectificativa>',
    '<sum1:ImporteTotal>-1002.10</sum1:ImporteTotal>',
    '<sum1:NumSerieFactura>F2026-0040</sum1:NumSerieFactura>',
  ])
    assert.ok(xml.includes(fragment), fragment);
});

test('the equivalence surcharge adds to CuotaTotal and ImporteTotal', () => {
  const checked = checkVerifactuRequest(VERIFACTU_EXAMPLES['F1 with equivalence surcharge'], TEST_SETTINGS);
  assert.ok(checked.record.kind === 'alta');
  if (checked.record.kind !== 'alta') return;
  // 800 × 5.2 % = 41.60; 31 × 1.4 % = 0.434 → 0.43.
  assert.equal(checked.record.cuotaTotal, '213.13');
  assert.equal(checked.record.importeTotal, '1044.13');
});

const change = (name: string, edit: (request: JsonAnswer) => void) => {
  const request = structuredClone(VERIFACTU_EXAMPLES[name]!);
  edit(request);
  return request;
};

test('bad input: each refusal names its field and the AEAT code it prevents', () => {
  const F1 = 'F1 with 21 % and 10 %';
  const cases: [string, unknown, [string, string][]][] = [
    [
      'a wrong check character in the seller NIF',
      change(F1, (r) => (r.seller.vat_id = 'ESB12345675')),
      [['4116', 'seller.vat_id']],
    ],
    [
      'a wrong check character in the buyer NIF',
      change(F1, (r) => (r.buyer.vat_id = 'ESA58818502')),
      [['1123', 'buyer.vat_id']],
    ],
    ['no Spanish seller NIF', change(F1, (r) => (r.seller.vat_id = 'FR40303265045')), [['4104', 'seller.vat_id']]],
    [
      'a rectifying invoice without the corrected ones',
      change(F1, (r) => (r.verifactu.invoice_type = 'R1')),
      [['verifactu_corrected_invoices', 'verifactu.corrected_invoices']],
    ],
    [
      'a substitution without its amounts',
      change(F1, (r) =>
        Object.assign(r.verifactu, {
          invoice_type: 'R1',
          correction: 'substitution',
          corrected_invoices: [{ invoice_number: 'A1', issue_date: '2026-11-01' }],
        }),
      ),
      [['1118', 'verifactu.corrected_amounts']],
    ],
    [
      'an F2 above its limit',
      change('F2 simplified, no buyer NIF', (r) => (r.line_items[0].quantity = 40)),
      [['1150', 'verifactu.invoice_type']],
    ],
    ['an F2 naming a buyer NIF', change(F1, (r) => (r.verifactu.invoice_type = 'F2')), [['1190', 'buyer.vat_id']]],
    ['an F1 without a buyer id', change(F1, (r) => delete r.buyer.vat_id), [['1189', 'buyer.vat_id']]],
    [
      'an exemption cause on a taxed line',
      change(F1, (r) => (r.verifactu.vat_groups = [{ rate: 21, qualification: 'E1' }])),
      [['1238', 'verifactu.vat_groups[0].qualification']],
    ],
    [
      'an exempt line without its cause',
      change(F1, (r) =>
        r.line_items.push({ description: 'x', quantity: 1, unit_price: 1, tax_rate: 0, tax_category: 'E' }),
      ),
      [['1195', 'verifactu.vat_groups']],
    ],
    [
      'a rate Spain does not have',
      change(F1, (r) => (r.line_items[0].tax_rate = 19)),
      [['1124', 'line_items[0].tax_rate']],
    ],
    [
      'a surcharge that does not go with the rate',
      change(F1, (r) => (r.verifactu.vat_groups = [{ rate: 21, surcharge_rate: 1.4 }])),
      [['1162', 'verifactu.vat_groups[0].surcharge_rate']],
    ],
    [
      'export E2 under the general regime',
      change(
        'F1 intra-EU supply E5 to a French buyer, export E2',
        (r) => (r.verifactu.vat_groups = [{ rate: 0, category: 'G', regime: '01' }]),
      ),
      [['1199', 'verifactu.vat_groups[0].regime']],
    ],
    [
      'E7 outside IGIC',
      change(F1, (r) => {
        r.line_items.push({ description: 'x', quantity: 1, unit_price: 1, tax_rate: 0, tax_category: 'E' });
        r.verifactu.vat_groups = [{ rate: 0, qualification: 'E7' }];
      }),
      [['1182', 'verifactu.vat_groups[0].qualification']],
    ],
    [
      'an IGIC rate that does not exist',
      change('F1 IGIC in the Canary Islands', (r) => (r.line_items[0].tax_rate = 21)),
      [['verifactu_igic_rate', 'line_items[0].tax_rate']],
    ],
    ['a currency other than euro', change(F1, (r) => (r.currency = 'USD')), [['verifactu_currency', 'currency']]],
    [
      'an invoice number with a forbidden character',
      change(F1, (r) => (r.invoice_number = 'F<1>')),
      [['1287', 'invoice_number']],
    ],
    ['an issue date before VERI*FACTU', change(F1, (r) => (r.issue_date = '2024-10-01')), [['1152', 'issue_date']]],
    ['an issue date in the future', change(F1, (r) => (r.issue_date = '2026-12-24')), [['1112', 'issue_date']]],
    [
      'a previous record whose NIF fails',
      change(F1, (r) => (r.verifactu.previous.issuer_nif = 'B12345675')),
      [['1180', 'verifactu.previous.issuer_nif']],
    ],
    [
      'a total of more than 12 integer digits',
      change(F1, (r) => {
        r.line_items = [{ description: 'x', quantity: 100000, unit_price: 99999999, tax_rate: 21 }];
      }),
      [['4102', 'line_items']],
    ],
  ];
  for (const [name, request, expected] of cases) assert.deepEqual(issuesOf(request), expected, name);
});

test('bad input: a malformed verifactu object is thrown with its field', () => {
  const cases: [string, (r: JsonAnswer) => void, string][] = [
    ['a previous without its huella', (r) => delete r.verifactu.previous.huella, 'verifactu.previous.huella'],
    [
      'a huella that is not 64 hexadecimal characters',
      (r) => (r.verifactu.previous.huella = 'abc'),
      'verifactu.previous.huella',
    ],
    ['an unknown invoice type', (r) => (r.verifactu.invoice_type = 'F9'), 'verifactu.invoice_type'],
  ];
  for (const [name, edit, path] of cases) {
    assert.throws(
      () => checkVerifactuRequest(change('F1 with 21 % and 10 %', edit), TEST_SETTINGS),
      (error: JsonAnswer) => error.issues?.some((issue: { path: string }) => issue.path === path),
      name,
    );
  }
});

test('inspect: a tampered amount is reported as not matching, the rest still read; a broken link names the record', () => {
  const first = checkVerifactuRequest(VERIFACTU_EXAMPLES['F1 first record of the system'], TEST_SETTINGS);
  const xml = verifactuXml(first).replace(
    '<sum1:ImporteTotal>1002.10</sum1:ImporteTotal>',
    '<sum1:ImporteTotal>1.10</sum1:ImporteTotal>',
  );
  const report = readRecords(xml, { environment: 'test' });
  assert.equal(report.records[0]!.huella.matches, false);
  assert.equal(report.records[0]!.huella.stated, first.record.huella);
  assert.equal(report.records[0]!.importe_total, '1.10');
  assert.equal(
    report.records[0]!.qr_url,
    qrUrl({ nif: 'B12345674', numserie: 'F2026-0042', fecha: '30-11-2026', importe: '1.10' }, 'verifactu', 'test'),
  );
  assert.equal(report.huellas_match, false);
});
