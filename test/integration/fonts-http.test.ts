import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { pdfFonts, pdfPages, pdfTextFonts } from '../fixtures/pdfTools.js';
import { latinOnlyFont, LARGE_FONT } from '../support/testFonts.js';
import { postJson, startPaymentSpyApp, startTestApp, type PaymentSpyApp, type TestApp } from '../support/testApp.js';

/**
 * PUT /v1/fonts over HTTP: what it stores and answers, what it refuses and why (fontkit's reading
 * and Chromium's sanitiser), and invoices printed in a stored font: embedded as a subset, refused
 * before payment when the id is unknown.
 */
let renderer: Renderer;
let free: TestApp;
let priced: PaymentSpyApp;
let small: TestApp;
before(
  async () => {
    // The fonts first: subsetting one blocks this process's event loop (the apps' too) for seconds
    // on a loaded machine, which between two requests let a keep-alive socket pass the server's
    // 5 s limit and the next PUT end in ECONNRESET.
    await Promise.all([
      ...(['truetype', 'woff', 'woff2'] as const).map((format) => latinOnlyFont(format)),
      latinOnlyFont('woff2', 'bold'),
    ]);
    renderer = await createRenderer({ poolSize: 1 });
    free = await startTestApp({ PRICES: 'v1_invoice_pdf=0' }, { renderer });
    priced = await startPaymentSpyApp({}, { renderer });
    small = await startTestApp({ FONT_MAX_BYTES: '30000' }, { renderer });
  },
  // Subsetting four fonts took over 60 s at nice 19 under load 29 (a clone's npm test beside four builds).
  { timeout: 180_000 },
);
after(async () => {
  for (const app of [free, priced, small]) await app?.close();
  await renderer?.close();
});

const putFont = (app: TestApp, body: Uint8Array | string, type = 'font/ttf') =>
  fetch(`${app.url}/v1/fonts`, {
    method: 'PUT',
    headers: { 'content-type': type },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });

async function refusal(
  response: Response,
): Promise<{ code: string; issue: { path: string; code: string; message: string } }> {
  assert.equal(response.status, 400);
  const { error } = (await response.json()) as {
    error: { code: string; issues: { path: string; code: string; message: string }[] };
  };
  return { code: error.code, issue: error.issues[0]! };
}

/** The same TrueType font with one table's bytes changed (tables are found by the sfnt directory). */
function withTableByte(font: Buffer, tag: string, at: number, value: number): Buffer {
  const copy = Buffer.from(font);
  for (let index = 0; index < copy.readUInt16BE(4); index++) {
    const record = 12 + index * 16;
    if (copy.toString('latin1', record, record + 4) === tag)
      copy.writeUInt32BE(value, copy.readUInt32BE(record + 8) + at);
  }
  return copy;
}

describe('PUT /v1/fonts', () => {
  test('stores TTF, WOFF and WOFF2 files: the id is the SHA-256 of the bytes, and the answer says what the font is', async () => {
    for (const format of ['truetype', 'woff', 'woff2'] as const) {
      const bytes = await latinOnlyFont(format);
      const response = await putFont(free, bytes, 'application/octet-stream');
      assert.equal(response.status, 200, format);
      const body = (await response.json()) as Record<string, unknown>;
      assert.equal(body.id, `sha256:${createHash('sha256').update(bytes).digest('hex')}`);
      assert.equal(body.family, 'Noto Serif');
      assert.equal(body.style, 'normal');
      assert.equal(body.weight, 400);
      assert.equal(body.format, format);
      assert.equal(body.bytes, bytes.length);
      assert.ok((body.characters as number) > 300 && (body.characters as number) < 400);
      assert.ok(!('base64' in body) && !('data' in body), 'the bytes are never served back');
      // The same file again: the same id.
      assert.equal(((await (await putFont(free, bytes)).json()) as { id: string }).id, body.id);
    }
    const bold = (await (await putFont(free, await latinOnlyFont('woff2', 'bold'))).json()) as { weight: number };
    assert.equal(bold.weight, 700);
  });

  test('takes JSON { font_base64 } as over MCP', async () => {
    const bytes = await latinOnlyFont('woff2');
    const response = await fetch(`${free.url}/v1/fonts`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ font_base64: bytes.toString('base64') }),
    });
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { format: string }).format, 'woff2');
  });

  test('refuses what is not a usable font with a 400 naming why', async () => {
    const ttf = await latinOnlyFont('truetype');
    const cases: [string, Uint8Array, string][] = [
      ['text', Buffer.from('this is not a font file at all'), 'not_a_font'],
      ['a PNG', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), 'not_a_font'],
      [
        'a collection',
        readFileSync('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc').subarray(0, 4096),
        'font_collection',
      ],
      ['a truncated TTF', ttf.subarray(0, Math.floor(ttf.length / 2)), 'truncated_font'],
      ['a truncated WOFF2', (await latinOnlyFont('woff2')).subarray(0, 5000), 'unreadable_font'],
      // fontkit reads it; Chromium's sanitiser (OTS) does not: a head table with a wrong magic number.
      ['a font OTS refuses', withTableByte(ttf, 'head', 12, 0), 'refused_by_chromium'],
      ['a restricted licence', withFsType(ttf, 0x0002), 'embedding_restricted'],
    ];
    for (const [what, bytes, code] of cases) {
      const { code: errorCode, issue } = await refusal(await putFont(free, bytes));
      assert.equal(errorCode, 'font_invalid', what);
      assert.equal(issue.path, 'font', what);
      assert.equal(issue.code, code, `${what}: ${issue.message}`);
    }
    const ots = await refusal(await putFont(free, withTableByte(ttf, 'head', 12, 0)));
    assert.match(ots.issue.message, /OTS parsing error: head/);
  });

  test('refuses a file over FONT_MAX_BYTES with a 400, and a wrong content type with a 415', async () => {
    const { issue } = await refusal(await putFont(small, await latinOnlyFont('woff')));
    assert.equal(issue.code, 'too_large');
    assert.match(issue.message, /at most 30000/);
    assert.equal((await putFont(free, await latinOnlyFont('woff2'), 'text/plain')).status, 415);
  });
});

describe('invoices in a stored font', () => {
  test('print the text in the brand font, embedded as a subset, and a large font adds little to the PDF', async () => {
    const put = (await (await putFont(free, readFileSync(LARGE_FONT))).json()) as { id: string };
    const plain = await postJson(`${free.url}/v1/invoice.pdf`, EXAMPLE_INVOICE);
    const branded = await postJson(`${free.url}/v1/invoice.pdf`, { ...EXAMPLE_INVOICE, theme: { font: put.id } });
    assert.equal(branded.status, 200);
    const pdf = Buffer.from(await branded.arrayBuffer());
    const before = Buffer.from(await plain.arrayBuffer());
    const brand = pdfFonts(pdf).filter((font) => /DejaVuSansMono/.test(font.name));
    assert.ok(brand.length > 0, 'the brand font is in the PDF');
    assert.ok(brand.every((font) => font.embedded && font.subset && /^[A-Z]{6}\+/.test(font.name)));
    assert.ok(!pdfFonts(before).some((font) => /DejaVuSansMono/.test(font.name)));
    const file = readFileSync(LARGE_FONT).length;
    assert.ok(file > 300_000);
    // A 340 KB font, one page: the PDF grows by well under 100 KB.
    assert.ok(pdf.length - before.length < 100_000, `grew ${pdf.length - before.length} bytes`);
    assert.match(pdfPages(pdf)[0]!, /Northwind Studio/);
  });

  test('a heading font and a bold face: each embedded; an installed family still works', async () => {
    const regular = (await (await putFont(free, await latinOnlyFont('woff2'))).json()) as { id: string };
    const bold = (await (await putFont(free, await latinOnlyFont('woff2', 'bold'))).json()) as { id: string };
    const mono = (await (await putFont(free, readFileSync(LARGE_FONT))).json()) as { id: string };
    const response = await postJson(`${free.url}/v1/invoice.pdf`, {
      ...EXAMPLE_INVOICE,
      theme: { font: regular.id, font_bold: bold.id, heading_font: mono.id },
    });
    assert.equal(response.status, 200);
    const names = pdfFonts(Buffer.from(await response.arrayBuffer())).map((font) => font.name);
    assert.ok(
      names.some((name) => /NotoSerif-Regular/.test(name)),
      names.join(),
    );
    assert.ok(
      names.some((name) => /NotoSerif-Bold/.test(name)),
      names.join(),
    );
    assert.ok(
      names.some((name) => /DejaVuSansMono/.test(name)),
      names.join(),
    );
    // Bold text prints in the uploaded bold cut, not an emboldened regular: the totals' label in
    // the text font's bold, the section labels in the heading font's bold, plain text in the regular.
    const body = await postJson(`${free.url}/v1/invoice.pdf`, {
      ...EXAMPLE_INVOICE,
      theme: { font: regular.id, font_bold: bold.id },
    });
    const bodyRuns = pdfTextFonts(Buffer.from(await body.arrayBuffer()));
    const fontOf = (runs: typeof bodyRuns, text: string) => runs.find((run) => run.text.trim() === text)?.font;
    assert.match(fontOf(bodyRuns, 'Total due') ?? '', /^[A-Z]{6}\+NotoSerif-Bold$/);
    assert.match(fontOf(bodyRuns, 'Subtotal') ?? '', /^[A-Z]{6}\+NotoSerif-Regular$/);
    const headings = await postJson(`${free.url}/v1/invoice.pdf`, {
      ...EXAMPLE_INVOICE,
      theme: { font: 'DejaVu Sans', heading_font: regular.id, heading_font_bold: bold.id },
    });
    const headingRuns = pdfTextFonts(Buffer.from(await headings.arrayBuffer()));
    assert.match(fontOf(headingRuns, 'BILL TO') ?? '', /^[A-Z]{6}\+NotoSerif-Bold$/);
    assert.match(fontOf(headingRuns, 'INVOICE') ?? '', /^[A-Z]{6}\+NotoSerif-Regular$/);
    const installed = await postJson(`${free.url}/v1/invoice.pdf`, {
      ...EXAMPLE_INVOICE,
      theme: { font: 'DejaVu Serif', heading_font: regular.id },
    });
    assert.equal(installed.status, 200);
  });

  test('an unknown font id is a 400 naming the field, before payment', async () => {
    const unknown = `sha256:${'ab'.repeat(32)}`;
    const before = priced.paidCalls;
    const response = await postJson(`${priced.url}/v1/invoice.pdf`, {
      ...EXAMPLE_INVOICE,
      theme: { font: 'Noto Serif', heading_font: unknown },
    });
    const { code, issue } = await refusal(response);
    assert.equal(code, 'validation_failed');
    assert.equal(issue.path, 'theme.heading_font');
    assert.equal(issue.code, 'unknown_font');
    assert.equal(priced.paidCalls, before, 'refused before payment');
    // A bold face without a brand regular one is refused by the schema.
    const bold = await refusal(
      await postJson(`${priced.url}/v1/invoice/validate`, { ...EXAMPLE_INVOICE, theme: { font_bold: unknown } }),
    );
    assert.equal(bold.issue.path, 'theme.font_bold');
  });
});

/** The same font with OS/2 fsType set (2: Restricted License embedding). */
function withFsType(font: Buffer, fsType: number): Buffer {
  const copy = Buffer.from(font);
  for (let index = 0; index < copy.readUInt16BE(4); index++) {
    const record = 12 + index * 16;
    if (copy.toString('latin1', record, record + 4) === 'OS/2')
      copy.writeUInt16BE(fsType, copy.readUInt32BE(record + 8) + 8);
  }
  return copy;
}
