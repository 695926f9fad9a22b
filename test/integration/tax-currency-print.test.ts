import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PINT_EXAMPLE_REQUESTS } from '../../src/einvoice/formats/pint/examples.js';
import { readForRender } from '../../src/einvoice/inbound/readInboundRequest.js';
import { prepareInvoice } from '../../src/invoice/prepareInvoice.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { normalizeText, pdfPages } from '../fixtures/pdfTools.js';
import { SHARED_EINVOICE } from '../support/inboundCorpus.js';

/**
 * The totals block read back from the PDF (pdftotext): the VAT total in the tax currency (BT-111)
 * when it differs from the invoice currency, on the JSON invoice route and on render.pdf, and
 * amounts of a currency without decimals (JPY) printed without any, recomputed ones included.
 */
let renderer: Renderer;
before(
  async () => {
    renderer = await createRenderer({ poolSize: 1 });
  },
  { timeout: 60_000 },
);
after(async () => {
  await renderer?.close();
});

const text = (pdf: Buffer) => normalizeText(pdfPages(pdf, 'raw').join('\n'));

async function invoiceText(changes: Record<string, unknown>): Promise<string> {
  const { profile: _profile, ...invoice } = structuredClone(PINT_EXAMPLE_REQUESTS['pint-sg']) as Record<
    string,
    unknown
  >;
  const { pdf } = await renderer.renderPdf(prepareInvoice({ ...invoice, ...changes }));
  return text(pdf);
}

async function inboundText(bytes: Uint8Array, locale?: string): Promise<string> {
  const { pdf } = await renderer.renderInboundPdf(readForRender({ bytes, format: 'xml', locale }));
  return text(pdf);
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

describe('render.pdf: tax currency and decimals', () => {
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
      assert.match(page, /BT-106 line_total\s+255,991\s+255,990\n/);
      assert.match(page, /Total due JPY\s+289,490\n/);
      assert.doesNotMatch(page, /\d\.00\b/);
    },
  );
});
