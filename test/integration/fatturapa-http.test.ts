import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXAMPLE_FATTURAPA_REQUEST } from '../../src/einvoice/formats/fatturapa/example.js';
import { fatturaPAFieldsOf, produceFatturaPA } from '../../src/einvoice/formats/fatturapa/request.js';
import { prepareProfiledEInvoice } from '../../src/einvoice/prepareEInvoice.js';
import { FATTURAPA_EXAMPLES } from '../fixtures/fatturapaExamples.js';
import { postJson, startTestApp, type TestApp } from '../support/testApp.js';

/**
 * POST /v1/e-invoice/fatturapa.xml and validate with profile fatturapa over HTTP: a request the SDI
 * would refuse is a 400 naming every field and SDI control code before any payment (the priced
 * app has no payment processor and answers 501 only for what passed, so a 400 there proves the
 * refusal comes first); an accepted one is the file, named as the SDI expects.
 */
let free: TestApp;
let priced: TestApp;

before(
  async () => {
    free = await startTestApp({ PRICES: 'v1_e_invoice_fatturapa_xml=0' });
    priced = await startTestApp({});
  },
  { timeout: 60_000 },
);
after(async () => {
  await free?.close();
  await priced?.close();
});

const example = EXAMPLE_FATTURAPA_REQUEST;
const pairs = (issues: { code: string; path: string }[]) => issues.map((issue) => [issue.code, issue.path]);

const BAD: { name: string; body: Record<string, unknown>; code: string; issues: [string, string][] }[] = [
  {
    name: 'a partita IVA and a codice fiscale with wrong check characters',
    body: {
      ...example,
      seller: { ...example.seller, vat_id: 'IT01234567890' },
      fatturapa: { ...example.fatturapa, buyer_codice_fiscale: 'RSSMRA80A01H501V' },
    },
    code: 'einvoice_rules_failed',
    issues: [
      ['00301', 'seller.vat_id'],
      ['00306', 'fatturapa.buyer_codice_fiscale'],
    ],
  },
  {
    name: 'a 0 % line without Natura and a Natura on a taxed line',
    body: {
      ...example,
      line_items: [...example.line_items, { description: 'Servizio', quantity: 1, unit_price: 10, tax_rate: 0 }],
      fatturapa: { ...example.fatturapa, natura: undefined, line_natura: [{ line: 0, code: 'N4' }] },
    },
    code: 'einvoice_rules_failed',
    issues: [
      ['00400', 'line_items[1]'],
      ['00400', 'line_items[2]'],
      ['00401', 'fatturapa.line_natura[0].code'],
    ],
  },
  {
    name: 'a recipient code of 6 characters on FPR12 and a PEC beside it',
    body: { ...example, fatturapa: { ...example.fatturapa, recipient_code: 'ABC123', recipient_pec: 'a@pec.it' } },
    code: 'einvoice_rules_failed',
    issues: [
      ['00427', 'fatturapa.recipient_code'],
      ['00426', 'fatturapa.recipient_pec'],
    ],
  },
  {
    name: 'a recipient code of 5 characters, a generic N3 and an invoice number without digits',
    body: {
      ...example,
      invoice_number: 'ABC',
      fatturapa: { ...example.fatturapa, recipient_code: 'ABCDE', natura: { code: 'N3' } },
    },
    code: 'einvoice_rules_failed',
    issues: [
      ['00311', 'fatturapa.recipient_code'],
      ['00445', 'fatturapa.natura.code'],
      ['00425', 'invoice_number'],
    ],
  },
  {
    name: 'a rounding of the amount due, which this service does not write in FatturaPA',
    body: { ...example, rounding_amount: 0.01 },
    code: 'einvoice_rules_failed',
    issues: [['fatturapa_rounding', 'rounding_amount']],
  },
  {
    name: 'a regime fiscale that does not exist',
    body: { ...example, fatturapa: { ...example.fatturapa, regime_fiscale: 'RF03' } },
    code: 'validation_failed',
    issues: [['invalid_value', 'fatturapa.regime_fiscale']],
  },
];

describe('requests the SDI would refuse', () => {
  for (const { name, body, code, issues } of BAD) {
    test(`${name}: 400 with every path and SDI control, before any payment`, async () => {
      for (const app of [free, priced]) {
        const response = await postJson(`${app.url}/v1/e-invoice/fatturapa.xml`, body);
        assert.equal(response.status, 400, app === free ? 'free' : 'priced');
        assert.equal(response.headers.get('payment-required'), null);
        const { error } = await response.json();
        assert.equal(error.code, code);
        assert.deepEqual(pairs(error.issues), issues);
      }
    });
  }

  test('validate answers the same issues with profile fatturapa', async () => {
    const response = await postJson(`${free.url}/v1/e-invoice/validate`, BAD[0]!.body);
    assert.equal(response.status, 200);
    const report = await response.json();
    assert.equal(report.valid, false);
    assert.equal(report.profile, 'fatturapa');
    assert.deepEqual(pairs(report.issues), BAD[0]!.issues);
  });

  test('the fatturapa object under another profile, and profile fatturapa on the UBL route', async () => {
    const other = await postJson(`${free.url}/v1/e-invoice/validate`, { ...example, profile: 'en16931' });
    assert.equal(other.status, 400);
    assert.deepEqual(pairs((await other.json()).error.issues), [['unknown_property', 'fatturapa']]);
    const ubl = await postJson(`${free.url}/v1/e-invoice/ubl.xml`, example);
    assert.equal(ubl.status, 400);
    assert.deepEqual(pairs((await ubl.json()).error.issues), [['profile_format', 'profile']]);
  });
});

describe('what the route writes', () => {
  test('the example: the file named as the SDI expects, the bytes of the writer, 501 when priced', async () => {
    const response = await postJson(`${free.url}/v1/e-invoice/fatturapa.xml`, example);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename="IT01234567897_26042.xml"');
    assert.match(response.headers.get('content-type') ?? '', /^application\/xml/);
    const expected = prepareProfiledEInvoice(example, 'fatturapa');
    const body = Buffer.from(await response.arrayBuffer());
    assert.ok(body.equals(produceFatturaPA(expected.prepared, fatturaPAFieldsOf(expected)!).xml));
    assert.equal(response.headers.get('x-fatturapa-signature'), null);
    assert.equal((await postJson(`${priced.url}/v1/e-invoice/fatturapa.xml`, example)).status, 501);
  });

  test('profile is implied on the route, and FPA12 says it must be signed', async () => {
    const { profile: _profile, ...withoutProfile } = FATTURAPA_EXAMPLES['fpa12-public-administration'];
    const response = await postJson(`${free.url}/v1/e-invoice/fatturapa.xml`, withoutProfile);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('x-fatturapa-signature') ?? '', /^required/);
    assert.match(await response.text(), /<FormatoTrasmissione>FPA12<\/FormatoTrasmissione>/);
  });

  test('validate answers the file name and every amount the XML carries', async () => {
    const report = await (await postJson(`${free.url}/v1/e-invoice/validate`, example)).json();
    assert.equal(report.valid, true);
    assert.deepEqual(report.fatturapa, {
      file_name: 'IT01234567897_26042.xml',
      transmission_format: 'FPR12',
      document_type: 'TD01',
      summaries: [
        { rate: '22', natura: null, taxable: '1185.60', tax: '260.83' },
        { rate: '0', natura: 'N1', taxable: '2.00', tax: '0.00' },
      ],
      pension_fund: { type: 'TC04', base: '1140.00', amount: '45.60' },
      withholding: { type: 'RT01', base: '1140.00', amount: '228.00' },
      stamp_duty: null,
      total: '1448.43',
      payable: '1220.43',
    });
  });
});
