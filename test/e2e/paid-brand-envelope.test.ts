// A brand font, a window envelope and a stored house style bought end to end: a stock @x402/fetch
// client pays on the local chain through the real facilitator, and the real renderer prints the
// invoice in a font the buyer uploaded, with the address where a DIN 5008 form B window shows it,
// and in a design the buyer stored (PUT /v1/templates, docs/templates.md).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { x402Client } from '@x402/core/client';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { HOUSE_STYLE } from '../fixtures/housePackages.js';
import { ENVELOPE_INVOICE } from '../fixtures/invoices.js';
import { pdfFonts, pdfInfo, pdfPages, pdfWords } from '../fixtures/pdfTools.js';
import { usePaidService } from '../support/paymentWorld.js';
import { LARGE_FONT } from '../support/testFonts.js';

const world = usePaidService();

/** A cross-border letter, so the country line prints too, in DIN 5008 form B's window. */
const INVOICE = { ...ENVELOPE_INVOICE, envelope: 'din-5008-b' };

/**
 * DIN 5008 form B, as the standard gives it (not read from the service's table): the address field
 * 85 mm wide, 20 mm from the left and 45 mm from the top; its address zone the 27.3 mm from 62.7 mm
 * down, the return zone the 17.7 mm above.
 */
const DIN_5008_B = { left: 20, right: 105, returnTop: 45, addressTop: 62.7, addressBottom: 90 };
/** pdftotext's boxes are the glyphs' font boxes, rounded: a word may touch a zone's edge by this much. */
const TOLERANCE_MM = 0.2;

async function buy(buyerIndex: number, body: unknown): Promise<Buffer> {
  const buyer = world.net.buyers[buyerIndex]!;
  const client = new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(buyer.privateKey)));
  const response = await wrapFetchWithPayment(fetch, client)(`${world.service.url}/v1/invoice.pdf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  assert.equal(response.status, 200, await response.clone().text());
  const receipt = decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE')!);
  assert.equal(receipt.success, true);
  assert.equal(receipt.payer?.toLowerCase(), buyer.address.toLowerCase());
  return Buffer.from(await response.arrayBuffer());
}

describe('a brand font and a window envelope, paid with a stock x402 client', () => {
  test('the font is embedded as a subset, the PDF grows little, the address sits in the window', async (t) => {
    const fontFile = readFileSync(LARGE_FONT);
    const upload = await fetch(`${world.service.url}/v1/fonts`, {
      method: 'PUT',
      headers: { 'content-type': 'font/ttf' },
      body: new Uint8Array(fontFile),
      signal: AbortSignal.timeout(30_000),
    });
    assert.equal(upload.status, 200, 'uploading a font is free');
    const { id, family } = (await upload.json()) as { id: string; family: string };
    assert.equal(family, 'DejaVu Sans Mono');

    const branded = await buy(0, { ...INVOICE, theme: { font: id } });
    const installed = await buy(1, INVOICE);

    // pdffonts: the brand font, embedded, only the glyphs used (ABCDEF+), and not in the other PDF.
    const brand = pdfFonts(branded).filter((font) => /DejaVuSansMono/.test(font.name));
    assert.ok(
      brand.length > 0,
      pdfFonts(branded)
        .map((font) => font.name)
        .join(),
    );
    for (const font of brand) {
      assert.match(font.name, /^[A-Z]{6}\+DejaVuSansMono/);
      assert.ok(font.embedded && font.subset, `${font.name}: emb yes, sub yes`);
    }
    assert.ok(!pdfFonts(installed).some((font) => /DejaVuSansMono/.test(font.name)));
    // A 340 KB font file; the PDF grows by well under 100 KB.
    assert.ok(fontFile.length > 300_000);
    const growth = branded.length - installed.length;
    assert.ok(growth < 100_000, `the brand font added ${growth} bytes`);
    t.diagnostic(`font file ${fontFile.length} B; PDF ${installed.length} B installed, ${branded.length} B branded`);

    // The envelope's paper, and every line of the address in the window's address zone.
    assert.match(pdfInfo(branded)['Page size']!, /\(A4\)/);
    const words = pdfWords(branded);
    const inZone = (word: (typeof words)[number], top: number, bottom: number) =>
      word.xMin >= DIN_5008_B.left - TOLERANCE_MM &&
      word.xMax <= DIN_5008_B.right + TOLERANCE_MM &&
      word.yMin >= top - TOLERANCE_MM &&
      word.yMax <= bottom + TOLERANCE_MM;
    for (const line of ['Acme', 'Accounts', 'Market', '94105', 'UNITED']) {
      const found = words.filter(
        (word) => word.text.startsWith(line) && inZone(word, DIN_5008_B.addressTop, DIN_5008_B.addressBottom),
      );
      assert.equal(found.length, 1, `"${line}" in the address zone`);
    }
    // The seller's return line in the zone above it.
    assert.ok(
      words.some((word) => word.text === 'Northwind' && inZone(word, DIN_5008_B.returnTop, DIN_5008_B.addressTop)),
      'the return line above the address',
    );
  });
});

describe('a stored house style, paid with a stock x402 client', () => {
  test('the design is stored free, the invoice bought in it prints its tagline and every total', async () => {
    const stored = await fetch(`${world.service.url}/v1/templates`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(HOUSE_STYLE),
      signal: AbortSignal.timeout(60_000),
    });
    assert.equal(stored.status, 200, await stored.clone().text());
    const { id } = (await stored.json()) as { id: string };
    assert.match(id, /^sha256:[0-9a-f]{64}$/);

    const text = pdfPages(await buy(2, { ...EXAMPLE_INVOICE, design: id })).join('\n');
    assert.match(text, /Northwind house style/, 'the header partial of the house style');
    for (const fact of ['INV-2026-0042', '$10,803.74', 'Northwind']) assert.ok(text.includes(fact), fact);
  });
});
