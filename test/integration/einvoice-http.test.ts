import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eInvoiceXml } from '../../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_EINVOICE } from '../../src/einvoice/example.js';
import { prepareEInvoice } from '../../src/einvoice/prepareEInvoice.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { pdfInfo } from '../fixtures/pdfTools.js';
import { postJson, startTestApp, type TestApp } from '../support/testApp.js';

/**
 * The e-invoice routes over HTTP with the real renderer. Prices are set to 0 here so the work
 * itself can be fetched without a chain (test/e2e/paid-einvoice.test.ts pays for real), plus one
 * app with the default prices and no payment processor to see what is priced.
 */
let renderer: Renderer;
let free: TestApp;
let priced: TestApp;
const FREE = 'v1_invoice_pdf=0,v1_e_invoice_factur_x_pdf=0,v1_e_invoice_cii_xml=0,v1_e_invoice_ubl_xml=0';

before(
  async () => {
    renderer = await createRenderer({ poolSize: 1 });
    free = await startTestApp({ PRICES: FREE }, { renderer });
    priced = await startTestApp({}, { renderer });
  },
  { timeout: 60_000 },
);
after(async () => {
  await free?.close();
  await priced?.close();
  await renderer?.close();
});

describe('what the routes produce', () => {
  test('cii.xml and ubl.xml answer the XML of the invoice as application/xml', async () => {
    for (const syntax of ['cii', 'ubl'] as const) {
      const response = await postJson(`${free.url}/v1/e-invoice/${syntax}.xml`, EXAMPLE_EINVOICE);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type')!, /^application\/xml/);
      assert.equal(
        response.headers.get('content-disposition'),
        `attachment; filename="invoice-INV-2026-0042-${syntax}.xml"`,
      );
      const body = Buffer.from(await response.arrayBuffer());
      assert.ok(body.equals(eInvoiceXml(prepareEInvoice(EXAMPLE_EINVOICE), syntax)));
    }
  });

  test('a credit note is a UBL CreditNote', async () => {
    const response = await postJson(`${free.url}/v1/e-invoice/ubl.xml`, {
      ...EXAMPLE_EINVOICE,
      document_type: 'credit_note',
    });
    assert.equal(response.status, 200);
    assert.match(
      await response.text(),
      /<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/,
    );
  });

  test('factur-x.pdf answers a PDF/A-3 with the invoice pages', { timeout: 60_000 }, async () => {
    const response = await postJson(`${free.url}/v1/e-invoice/factur-x.pdf`, EXAMPLE_EINVOICE);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    const pdf = Buffer.from(await response.arrayBuffer());
    const info = pdfInfo(pdf);
    assert.equal(info['PDF version'], '1.7');
    assert.equal(info.Pages, response.headers.get('x-page-count'));
    assert.equal(info['Metadata Stream'], 'yes');
  });

  test('validate answers the totals and valid: true for a compliant invoice', async () => {
    const response = await postJson(`${free.url}/v1/e-invoice/validate`, EXAMPLE_EINVOICE);
    assert.equal(response.status, 200);
    const body = await response.json();
    assert.equal(body.valid, true);
    assert.deepEqual(body.issues, []);
    assert.equal(body.specification, 'urn:cen.eu:en16931:2017');
    const plain = await (await postJson(`${free.url}/v1/invoice/validate`, EXAMPLE_EINVOICE)).json();
    assert.deepEqual(body.totals, plain, 'the same totals as /v1/invoice/validate');
  });
});

/** Valid invoices that EN 16931 forbids: 400 with the rule ids and paths, while the plain PDF prints. */
const S_LINE = { description: 'Consulting', quantity: 1, unit_price: 100, tax_rate: 19 };
const BAD: { name: string; body: unknown; issues: [string, string][] }[] = [
  {
    name: 'missing countries',
    body: {
      ...EXAMPLE_EINVOICE,
      seller: { ...EXAMPLE_EINVOICE.seller, country: undefined },
      buyer: { name: 'Buyer', address: 'Somewhere' },
    },
    issues: [
      ['BR-09', 'seller.country'],
      ['BR-11', 'buyer.country'],
    ],
  },
  {
    name: 'standard-rated lines without a seller VAT id or tax registration',
    body: { ...EXAMPLE_EINVOICE, seller: { ...EXAMPLE_EINVOICE.seller, vat_id: undefined }, line_items: [S_LINE] },
    issues: [
      ['BR-CO-26', 'seller.vat_id'],
      ['BR-S-02', 'seller.vat_id'],
    ],
  },
  {
    name: 'a unit code not in UN/ECE Rec 20',
    body: { ...EXAMPLE_EINVOICE, line_items: [S_LINE, { ...S_LINE, unit: 'ZZZ' }] },
    issues: [['BR-CL-23', 'line_items[1].unit']],
  },
  {
    name: 'reverse charge without the buyer VAT id, exempt without a reason',
    body: {
      ...EXAMPLE_EINVOICE,
      buyer: { ...EXAMPLE_EINVOICE.buyer, vat_id: undefined },
      line_items: [
        { ...S_LINE, tax_rate: 0, tax_category: 'AE' },
        { ...S_LINE, tax_rate: 0, tax_category: 'E' },
      ],
    },
    issues: [
      ['BR-E-10', 'tax_exemption_reason'],
      ['BR-AE-02', 'buyer.vat_id'],
    ],
  },
];

describe('invoices EN 16931 forbids', () => {
  for (const { name, body, issues } of BAD) {
    test(
      `${name}: 400 with the rule ids and paths on every e-invoice route; /v1/invoice.pdf still prints`,
      { timeout: 60_000 },
      async () => {
        for (const route of ['factur-x.pdf', 'cii.xml', 'ubl.xml']) {
          const response = await postJson(`${free.url}/v1/e-invoice/${route}`, body);
          assert.equal(response.status, 400, route);
          const { error } = await response.json();
          assert.equal(error.code, 'en16931_rules_failed');
          assert.deepEqual(
            error.issues.map((issue: { code: string; path: string }) => [issue.code, issue.path]),
            issues,
            route,
          );
        }
        const validate = await (await postJson(`${free.url}/v1/e-invoice/validate`, body)).json();
        assert.equal(validate.valid, false);
        assert.deepEqual(
          validate.issues.map((issue: { code: string; path: string }) => [issue.code, issue.path]),
          issues,
        );
        const plain = await postJson(`${free.url}/v1/invoice.pdf`, body);
        assert.equal(plain.status, 200);
        assert.equal(plain.headers.get('content-type'), 'application/pdf');
      },
    );
  }

  test('a category/rate mismatch is named by its EN 16931 rule (the plain PDF refuses it too)', async () => {
    const body = {
      ...EXAMPLE_EINVOICE,
      line_items: [
        { ...S_LINE, tax_category: 'K' },
        { ...S_LINE, tax_rate: 0, tax_category: 'S' },
      ],
    };
    const response = await postJson(`${free.url}/v1/e-invoice/ubl.xml`, body);
    assert.equal(response.status, 400);
    const { error } = await response.json();
    assert.deepEqual(
      error.issues.map((issue: { code: string; path: string }) => [issue.code, issue.path]),
      [
        ['BR-IC-05', 'line_items[0].tax_category'],
        ['BR-S-05', 'line_items[1].tax_category'],
      ],
    );
    assert.equal((await postJson(`${free.url}/v1/invoice.pdf`, body)).status, 400);
  });

  test('the minimal example (no countries) still prints as a plain PDF and is refused as an e-invoice', async () => {
    assert.equal((await postJson(`${free.url}/v1/e-invoice/cii.xml`, EXAMPLE_INVOICE)).status, 400);
    assert.equal((await postJson(`${free.url}/v1/invoice.pdf`, EXAMPLE_INVOICE)).status, 200);
  });
});

describe('prices and discovery', () => {
  test('the paid routes are priced by default (0.02 Factur-X, 0.01 XML) and listed in the discovery documents generated from the route table', async () => {
    const openapi = await (await fetch(`${priced.url}/openapi.json`)).json();
    const manifest = await (await fetch(`${priced.url}/.well-known/x402`)).json();
    const llms = await (await fetch(`${priced.url}/llms.txt`)).text();
    for (const [path, price] of [
      ['/v1/e-invoice/factur-x.pdf', '0.02'],
      ['/v1/e-invoice/cii.xml', '0.01'],
      ['/v1/e-invoice/ubl.xml', '0.01'],
    ] as const) {
      assert.ok(openapi.paths[path]?.post, `${path} in openapi.json`);
      const offer = manifest.offers.find(
        (entry: { resource: string; method: string }) =>
          new URL(entry.resource).pathname === path && entry.method === 'POST',
      );
      assert.equal(offer?.price.amount, price, `${path} in the x402 manifest`);
      assert.ok(llms.includes(`POST ${path}`) && llms.includes(`${price} USD per call`), `${path} in llms.txt`);
    }
    assert.ok(openapi.paths['/v1/e-invoice/validate']?.post);
    assert.ok(
      !manifest.offers.some((entry: { resource: string }) => entry.resource.endsWith('/v1/e-invoice/validate')),
      'validate is free',
    );
  });

  test('without a payment processor a paid route is 501 after validation, and an invalid body is 400 first', async () => {
    assert.equal((await postJson(`${priced.url}/v1/e-invoice/ubl.xml`, EXAMPLE_EINVOICE)).status, 501);
    assert.equal((await postJson(`${priced.url}/v1/e-invoice/ubl.xml`, EXAMPLE_INVOICE)).status, 400);
  });
});
