import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PINT_EXAMPLE_REQUESTS } from '../../src/einvoice/formats/pint/examples.js';
import { readForRender } from '../../src/einvoice/inbound/readInboundRequest.js';
import { prepareInvoice } from '../../src/invoice/prepareInvoice.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { normalizeText, pdfPages } from '../fixtures/pdfTools.js';
import { needsShared, SHARED_EINVOICE } from '../support/sharedFolder.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

/**
 * What the PDF of a PINT market's invoice prints, read back as a customer's reader sees it
 * (pdftotext), on the JSON invoice route (seller country, no profile) and on render.pdf of the
 * official PINT examples (BT-24): the marks of src/render/taxInvoiceMarks.ts ("Tax Invoice" and the
 * GST registration of an Australian, New Zealand or Singapore seller, Japan's registration number),
 * the VAT total in the tax currency (BT-111), and JPY amounts without decimals, recomputed ones included.
 */
let renderer: Renderer;
let app: TestApp;
before(
  async () => {
    renderer = await createRenderer({ poolSize: 1 });
    app = await startTestApp(
      { PRICES: 'v1_invoice_pdf=0,v1_e_invoice_render_pdf=0', COMPUTE_THREADS: '1' },
      { renderer },
    );
  },
  { timeout: 60_000 },
);
after(async () => {
  await app?.close();
  await renderer?.close();
});

const firstPage = (pdf: Buffer) => normalizeText(pdfPages(pdf, 'raw')[0] ?? '');

/** A PINT example request as a plain invoice for /v1/invoice.pdf: no profile, only the seller's country. */
function plainInvoice(name: keyof typeof PINT_EXAMPLE_REQUESTS, changes: Record<string, unknown> = {}) {
  const { profile: _profile, ...invoice } = structuredClone(PINT_EXAMPLE_REQUESTS[name]) as Record<string, unknown>;
  return { ...invoice, ...changes };
}

async function invoicePage(body: unknown): Promise<string> {
  const { pdf } = await renderer.renderPdf(prepareInvoice(body));
  return firstPage(pdf);
}

async function inboundPage(path: string, locale?: string): Promise<string> {
  const bytes = readFileSync(join(SHARED_EINVOICE, 'pint', path));
  const { pdf } = await renderer.renderInboundPdf(readForRender({ bytes, format: 'xml', locale, codeArguments: {} }));
  return firstPage(pdf);
}

describe('JSON invoice route: the seller country decides', () => {
  test('Australia: "Tax Invoice" and the ABN', { timeout: 60_000 }, async () => {
    const text = await invoicePage(plainInvoice('pint-aunz'));
    assert.match(text, /^Tax Invoice$/im);
    assert.match(text, /ABN\s+51824753556/);
  });

  test('New Zealand: "Tax Invoice" and the GST number', { timeout: 60_000 }, async () => {
    const base = plainInvoice('pint-aunz');
    const seller = { ...(base.seller as object), country: 'NZ', tax_registration_number: '49-091-850' };
    const text = await invoicePage({ ...base, currency: 'NZD', seller });
    assert.match(text, /^Tax Invoice$/im);
    assert.match(text, /GST No\.\s+49-091-850/);
  });

  test(
    'Singapore in German: "Tax Invoice", "Rechnung" under it, the GST registration',
    { timeout: 60_000 },
    async () => {
      const text = await invoicePage(plainInvoice('pint-sg', { locale: 'de-SG' }));
      assert.match(text, /^Tax Invoice\nRechnung$/im);
      assert.match(text, /GST Reg\. No\.\s+200212345Z/);
    },
  );

  test('Singapore without a GST registration, and a credit note: no "Tax Invoice"', { timeout: 60_000 }, async () => {
    const base = plainInvoice('pint-sg');
    const { tax_registration_number: _number, ...seller } = base.seller as Record<string, unknown>;
    const unregistered = await invoicePage({ ...base, seller });
    assert.doesNotMatch(unregistered, /Tax Invoice/);
    assert.match(unregistered, /^Invoice$/im);
    const credit = await invoicePage({ ...base, document_type: 'credit_note' });
    assert.doesNotMatch(credit, /Tax Invoice/);
  });

  test('Japan: the registration number T + 13 digits, labelled 登録番号 in Japanese', { timeout: 60_000 }, async () => {
    const japanese = await invoicePage(plainInvoice('pint-jp', { locale: 'ja-JP' }));
    assert.match(japanese, /登録番号\s*T8010001008843/);
    assert.doesNotMatch(japanese, /Tax Invoice/);
    const english = await invoicePage(plainInvoice('pint-jp'));
    assert.match(english, /Registration No\.\s+T8010001008843/);
  });

  test('a German seller: the title and the party block as before', { timeout: 60_000 }, async () => {
    const base = plainInvoice('pint-sg');
    const seller = { ...(base.seller as object), country: 'DE' };
    const text = await invoicePage({ ...base, seller, currency: 'EUR' });
    assert.match(text, /^Invoice$/im);
    assert.match(text, /Tax ID\s+200212345Z/);
  });
});

describe('render.pdf: received PINT documents (BT-24 decides)', { skip: needsShared('pint') }, () => {
  test('PINT SG: "Tax Invoice" and the GST registration (BT-32)', { timeout: 60_000 }, async () => {
    const text = await inboundPage('sg/examples/PINT-SG INV example 02 - full valid invoice 1.xml');
    assert.match(text, /^Tax Invoice$/im);
    assert.match(text, /GST Reg\. No\.\s+M2-1234567-K/);
    assert.doesNotMatch(text, /Tax ID\s+M2-1234567-K/);
  });

  test('PINT SG of a seller not GST-registered: no "Tax Invoice"', { timeout: 60_000 }, async () => {
    const text = await inboundPage('sg/examples/PINT-SG INV example 04 - none GST registered.xml');
    assert.doesNotMatch(text, /Tax Invoice/);
  });

  test(
    'PINT A-NZ: an Australian seller with its ABN as legal identifier; a New Zealand one',
    { timeout: 60_000 },
    async () => {
      const australian = await inboundPage('aunz/examples/AU Invoice Energy Bill Example_1.xml');
      assert.match(australian, /^Tax Invoice$/im);
      assert.match(australian, /ABN\s+47555222000/);
      const zealander = await inboundPage('aunz/examples/NZ No Allowances.xml', 'fr-FR');
      assert.match(zealander, /^Tax Invoice\nFacture$/im);
      assert.match(zealander, /GST No\.\s+888-888-888/);
    },
  );

  test('PINT A-NZ self-billing: "Recipient Created Tax Invoice"', { timeout: 60_000 }, async () => {
    const text = await inboundPage('aunz/examples/AUNZ Self Billing.xml');
    assert.match(text, /^Recipient Created\s+Tax Invoice$/im);
  });

  test('PINT JP: the seller registration number (BT-31) as 登録番号', { timeout: 60_000 }, async () => {
    const text = await inboundPage('jp/examples/Japan PINT Invoice UBL Example.xml', 'ja-JP');
    assert.match(text, /登録番号\s*T1234567890123/);
    assert.doesNotMatch(text, /Tax Invoice/);
  });
});

describe("the UAE and Malaysia marks, and a Japanese buyer's registration number", () => {
  test('a UAE seller: "Tax Invoice" and the TRN; its credit note "Tax Credit Note"', { timeout: 60_000 }, async () => {
    const invoice = await invoicePage(plainInvoice('pint-ae'));
    assert.match(invoice, /^Tax Invoice$/im);
    assert.match(invoice, /TRN\s+100123456700003/);
    assert.match(invoice, /TRN\s+100765432100003/, "the buyer's TRN too");
    assert.doesNotMatch(invoice, /Tax ID\s+100123456700003/);
    const credit = await invoicePage(
      plainInvoice('pint-ae', { document_type: 'credit_note', credit_note_reason_code: 'DL8.61.1.E' }),
    );
    assert.match(credit, /^Tax Credit Note$/im);
    assert.doesNotMatch(credit, /Tax Invoice/);
  });

  test('a UAE seller without a TRN: the ordinary title', { timeout: 60_000 }, async () => {
    const base = plainInvoice('pint-ae');
    const { tax_registration_number: _number, ...seller } = base.seller as Record<string, unknown>;
    const text = await invoicePage({ ...base, seller });
    assert.doesNotMatch(text, /Tax Invoice/);
    assert.match(text, /^Invoice$/im);
  });

  test('a Malaysian seller: its TIN (tax_id) labelled TIN, the title unchanged', { timeout: 60_000 }, async () => {
    const text = await invoicePage(plainInvoice('pint-my'));
    assert.match(text, /TIN\s+C26628753000/);
    assert.doesNotMatch(text, /Tax ID\s+C26628753000/);
    assert.doesNotMatch(text, /Tax Invoice/);
  });

  test(
    'render.pdf of PINT AE: "Tax Invoice" and the TRN (BT-31); the credit note "Tax Credit Note"',
    { timeout: 60_000, skip: needsShared('pint') },
    async () => {
      const invoice = await inboundPage('ae/examples/Commercial invoice.xml');
      assert.match(invoice, /^Tax Invoice$/im);
      assert.match(invoice, /TRN\s+198765432112303/);
      assert.match(invoice, /TRN\s+134567890123003/);
      assert.doesNotMatch(invoice, /VAT ID\s+198765432112303/);
      const credit = await inboundPage('ae/examples/Standard tax credit Note.xml');
      assert.match(credit, /^Tax Credit Note$/im);
    },
  );

  test(
    'render.pdf of PINT MY: the TIN (BT-32) labelled TIN',
    { timeout: 60_000, skip: needsShared('pint') },
    async () => {
      const text = await inboundPage('my/examples/Invoice-Sample-SA_1.3.0.xml');
      assert.match(text, /TIN\s+TIN20211100090911/);
      assert.doesNotMatch(text, /Tax Invoice/);
    },
  );

  test(
    'render.pdf of PINT JP: the buyer\'s T-number (BT-48) as registration number, not "VAT ID"',
    { timeout: 60_000, skip: needsShared('pint') },
    async () => {
      const text = await inboundPage('jp/examples/Japan PINT Invoice UBL Example.xml');
      // The official example writes the buyer's number as ">T3210987654321".
      assert.match(text, /Registration No\.\s+>T3210987654321/);
      assert.doesNotMatch(text, /VAT ID\s+>T3210987654321/);
    },
  );

  test('a Japanese buyer on the JSON route: 登録番号', { timeout: 60_000 }, async () => {
    const base = plainInvoice('pint-jp', { locale: 'ja-JP' });
    const buyer = { ...(base.buyer as object), tax_registration_number: 'T8010001008843' };
    const text = await invoicePage({ ...base, buyer });
    assert.equal(text.match(/登録番号\s*T8010001008843/g)?.length, 2);
  });
});

async function invoiceText(changes: Record<string, unknown>): Promise<string> {
  const { pdf } = await renderer.renderPdf(prepareInvoice(plainInvoice('pint-sg', changes)));
  return normalizeText(pdfPages(pdf, 'raw').join('\n'));
}

async function inboundText(bytes: Uint8Array, locale?: string): Promise<string> {
  const { pdf } = await renderer.renderInboundPdf(readForRender({ bytes, format: 'xml', locale, codeArguments: {} }));
  return normalizeText(pdfPages(pdf, 'raw').join('\n'));
}

const pint = (path: string) => readFileSync(join(SHARED_EINVOICE, 'pint', path));

describe('JSON invoice route: tax currency', () => {
  test(
    'a USD invoice with SGD as tax currency: the VAT total in SGD under the VAT rows',
    { timeout: 60_000 },
    async () => {
      // VAT 9 % of 4,000.00 USD = 360.00 USD; at 1.3452 SGD per USD: 484.272 → 484.27 SGD.
      const page = await invoiceText({ currency: 'USD', tax_currency: { code: 'SGD', exchange_rate: 1.3452 } });
      assert.match(page, /Tax \(9%\)\s+\$360\.00/);
      assert.match(page, /Tax total in SGD\s+SGD\s?484\.27/);
    },
  );

  test('JPY as tax currency: no decimals', { timeout: 60_000 }, async () => {
    // 360.00 USD at 151.237 JPY per USD = 54,445.32 → 54,445 JPY.
    const page = await invoiceText({ currency: 'USD', tax_currency: { code: 'JPY', exchange_rate: 151.237 } });
    assert.match(page, /Tax total in JPY\s+¥54,445\n/);
  });

  test('no row when the tax currency is the invoice currency, or absent', { timeout: 60_000 }, async () => {
    assert.doesNotMatch(await invoiceText({ tax_currency: { code: 'SGD', exchange_rate: 1 } }), /Tax total in/);
    assert.doesNotMatch(await invoiceText({}), /Tax total in/);
  });
});

describe('render.pdf: tax currency and decimals', { skip: needsShared('pint') }, () => {
  test('PINT SG in EUR with GST in SGD: the VAT total in SGD (BT-111)', { timeout: 60_000 }, async () => {
    const page = await inboundText(pint('sg/examples/PINT-SG INV example 16 - GST in SGD.xml'));
    assert.match(page, /Tax total in SGD \(BT-111\)\s+3,700\.65 SGD/);
  });

  test('PINT JP in EUR with tax in JPY, in Japanese: the JPY total without decimals', { timeout: 60_000 }, async () => {
    const page = await inboundText(pint('jp/examples/Japan PINT Invoice UBL Example2-TaxAcctCur.xml'), 'ja-JP');
    assert.match(page, /税額合計（JPY）\s*\(BT-111\)\s+32,500 JPY/);
    assert.doesNotMatch(page, /32,500\.00/);
  });

  test(
    'a JPY document whose line total differs: document and recomputed totals without decimals',
    { timeout: 60_000 },
    async () => {
      const xml = pint('jp/examples/Japan PINT Invoice UBL Example.xml')
        .toString('utf8')
        .replace(
          '<cbc:LineExtensionAmount currencyID="JPY">255990<',
          '<cbc:LineExtensionAmount currencyID="JPY">255991<',
        );
      const page = await inboundText(Buffer.from(xml));
      assert.match(page, /Subtotal \(BT-106\)\s+255,991\s+255,990\n/);
      assert.match(page, /Total due JPY\s+289,490\n/);
      assert.doesNotMatch(page, /\d\.00\b/);
    },
  );
});

describe('through the HTTP routes', () => {
  const post = async (path: string, type: string, body: BodyInit) => {
    const response = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': type },
      body,
      signal: AbortSignal.timeout(60_000),
    });
    assert.equal(
      response.status,
      200,
      await response
        .clone()
        .text()
        .catch(() => ''),
    );
    return normalizeText(pdfPages(Buffer.from(await response.arrayBuffer()), 'raw').join('\n'));
  };

  test('POST /v1/invoice.pdf of a Singapore seller, with a tax currency', { timeout: 60_000 }, async () => {
    const body = plainInvoice('pint-sg', { currency: 'USD', tax_currency: { code: 'SGD', exchange_rate: 1.3452 } });
    const page = await post('/v1/invoice.pdf', 'application/json', JSON.stringify(body));
    assert.match(page, /^Tax Invoice$/im);
    assert.match(page, /GST Reg\. No\.\s+200212345Z/);
    assert.match(page, /Tax total in SGD\s+SGD\s?484\.27/);
  });

  test(
    'POST /v1/e-invoice/render.pdf of the official PINT JP example',
    { timeout: 60_000, skip: needsShared('pint') },
    async () => {
      const xml = pint('jp/examples/Japan PINT Invoice UBL Example.xml');
      const page = await post('/v1/e-invoice/render.pdf?locale=ja-JP', 'application/xml', xml as BodyInit);
      assert.match(page, /登録番号\s*T1234567890123/);
      assert.match(page, /289,490\n/);
      assert.doesNotMatch(page, /289,490\.00/);
    },
  );
});
