import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { createMemoryFontStore, type FontStore } from '../../src/themes/fontStore.js';
import { pdfFonts, pdfPages, pdfTextFonts } from '../fixtures/pdfTools.js';
import { LARGE_FONT, latinOnlyFont } from '../support/testFonts.js';
import { postJson, startPaymentSpyApp, startTestApp, type PaymentSpyApp, type TestApp } from '../support/testApp.js';

/**
 * Fonts by id in a customer's design package (docs/templates.md#fonts): the package's `fonts`
 * names stored fonts by the family its CSS uses, the service writes the @font-face rules, and an
 * invoice printed with the stored design has the font embedded as a subset. An id nobody stored is
 * refused when the package is put, and a font that expired since is refused before payment.
 */
let renderer: Renderer;
let free: TestApp;
let priced: PaymentSpyApp;
/** The priced app's font store, whose fonts the last test lets "expire". */
const forgotten = new Set<string>();
const memory = createMemoryFontStore();
const pricedFonts: FontStore = {
  put: (font) => memory.put(font),
  get: async (id) => (forgotten.has(id) ? undefined : memory.get(id)),
  close: () => memory.close(),
};
before(
  async () => {
    // HarfBuzz's subsetter blocks the event loop for seconds: made before any app's socket is open
    // (a keep-alive connection left idle that long is reset under load).
    await Promise.all([latinOnlyFont('woff2'), latinOnlyFont('woff2', 'bold')]);
    renderer = await createRenderer({ poolSize: 1 });
    free = await startTestApp({ PRICES: 'v1_invoice_pdf=0', COMPUTE_THREADS: '1' }, { renderer });
    priced = await startPaymentSpyApp({ COMPUTE_THREADS: '0' }, { renderer, fonts: pricedFonts });
  },
  { timeout: 60_000 },
);
after(async () => {
  for (const app of [free, priced]) await app?.close();
  await renderer?.close();
});

const putFont = async (app: TestApp, bytes: Buffer) => {
  const response = await fetch(`${app.url}/v1/fonts`, {
    method: 'PUT',
    headers: { 'content-type': 'font/ttf' },
    body: new Uint8Array(bytes),
  });
  assert.equal(response.status, 200);
  return ((await response.json()) as { id: string }).id;
};
const putPackage = (app: TestApp, pkg: unknown) =>
  fetch(`${app.url}/v1/templates`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(pkg),
  });

type Refusal = { error: { code: string; issues: { path: string; code: string; message: string }[] } };

/** The text in the brand family (the service's fallback fonts after it, as classic writes them). */
const brandPackage = (id: string) => ({
  css: ':root { --font-face: "Brand Mono"; }\n.masthead h1 { font-family: "Brand Mono", sans-serif; }',
  fonts: { 'Brand Mono': id },
});

describe('a design package naming a stored font', () => {
  test('is stored with its fonts, and an invoice in it has the font embedded as a subset', async () => {
    const id = await putFont(free, readFileSync(LARGE_FONT));
    const put = await putPackage(free, brandPackage(id));
    assert.equal(put.status, 200, await put.clone().text());
    const design = ((await put.json()) as { id: string }).id;
    const stored = (await (await fetch(`${free.url}/v1/templates/${design}`)).json()) as { fonts?: unknown };
    assert.deepEqual(stored.fonts, { 'Brand Mono': id });

    const branded = await postJson(`${free.url}/v1/invoice.pdf`, { ...EXAMPLE_INVOICE, design });
    assert.equal(branded.status, 200, await branded.clone().text());
    const pdf = Buffer.from(await branded.arrayBuffer());
    const brand = pdfFonts(pdf).filter((font) => /DejaVuSansMono/.test(font.name));
    assert.ok(
      brand.length > 0,
      `the brand font is in the PDF: ${pdfFonts(pdf)
        .map((font) => font.name)
        .join()}`,
    );
    assert.ok(brand.every((font) => font.embedded && font.subset && /^[A-Z]{6}\+/.test(font.name)));
    assert.match(pdfPages(pdf)[0]!, /Northwind Studio/);

    // The same package without its fonts prints in the installed fonts: the family is the package's own.
    const plain = await putPackage(free, { css: brandPackage(id).css });
    assert.equal(plain.status, 200);
    const unbranded = await postJson(`${free.url}/v1/invoice.pdf`, {
      ...EXAMPLE_INVOICE,
      design: ((await plain.json()) as { id: string }).id,
    });
    assert.equal(unbranded.status, 200);
    const fonts = pdfFonts(Buffer.from(await unbranded.arrayBuffer()));
    assert.ok(!fonts.some((font) => /DejaVuSansMono/.test(font.name)), fonts.map((font) => font.name).join());
  });

  test('an inline package with fonts previews in the font', async () => {
    const id = await putFont(free, readFileSync(LARGE_FONT));
    const response = await postJson(`${free.url}/v1/templates/preview`, {
      design: brandPackage(id),
      invoice: EXAMPLE_INVOICE,
    });
    assert.equal(response.status, 200, await response.clone().text());
    const fonts = pdfFonts(Buffer.from(await response.arrayBuffer()));
    assert.ok(fonts.some((font) => /DejaVuSansMono/.test(font.name) && font.embedded && font.subset));
  });

  test('a family of a regular and a bold face prints bold text in the bold cut', async () => {
    const regular = await putFont(free, await latinOnlyFont('woff2'));
    const bold = await putFont(free, await latinOnlyFont('woff2', 'bold'));
    const pkg = {
      css: ':root { --font-face: "Brand Serif"; }',
      fonts: { 'Brand Serif': { regular, bold } },
    };
    const put = await putPackage(free, pkg);
    assert.equal(put.status, 200, await put.clone().text());
    const design = ((await put.json()) as { id: string }).id;
    const stored = (await (await fetch(`${free.url}/v1/templates/${design}`)).json()) as { fonts?: unknown };
    assert.deepEqual(stored.fonts, pkg.fonts);
    const response = await postJson(`${free.url}/v1/invoice.pdf`, { ...EXAMPLE_INVOICE, design });
    assert.equal(response.status, 200, await response.clone().text());
    const pdf = Buffer.from(await response.arrayBuffer());
    // Both cuts embedded as subsets, and each drawing what it should: the totals' label and the
    // section labels (bold in classic) in the bold cut, plain text in the regular one.
    const names = pdfFonts(pdf).filter((font) => /NotoSerif/.test(font.name));
    assert.ok(names.every((font) => font.embedded && font.subset));
    assert.deepEqual(names.map((font) => font.name.split('+')[1]).sort(), ['NotoSerif-Bold', 'NotoSerif-Regular']);
    const runs = pdfTextFonts(pdf);
    const fontOf = (text: string) => runs.find((run) => run.text.trim() === text)?.font ?? '';
    assert.match(fontOf('Total due'), /\+NotoSerif-Bold$/);
    assert.match(fontOf('BILL TO'), /\+NotoSerif-Bold$/);
    assert.match(fontOf('Subtotal'), /\+NotoSerif-Regular$/);
  });

  test('POST /v1/templates/check refuses a font id nobody stored, as PUT does, with the field', async () => {
    const unknown = `sha256:${'ef'.repeat(32)}`;
    const known = await putFont(free, readFileSync(LARGE_FONT));
    const check = await postJson(`${free.url}/v1/templates/check`, brandPackage(unknown));
    assert.equal(check.status, 400);
    const { error } = (await check.json()) as Refusal;
    assert.equal(error.code, 'validation_failed');
    assert.deepEqual(
      error.issues.map((issue) => [issue.path, issue.code]),
      [['fonts.Brand Mono', 'unknown_font']],
    );
    // A face of a family is named by its slot.
    const faces = { css: brandPackage(known).css, fonts: { 'Brand Mono': { regular: known, bold: unknown } } };
    for (const route of ['check', '']) {
      const refused = await fetch(`${free.url}/v1/templates${route ? `/${route}` : ''}`, {
        method: route ? 'POST' : 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(faces),
      });
      assert.equal(refused.status, 400, route);
      const issues = ((await refused.json()) as Refusal).error.issues;
      assert.deepEqual(
        issues.map((issue) => [issue.path, issue.code]),
        [['fonts.Brand Mono.bold', 'unknown_font']],
      );
    }
    // With its font stored the same package is checked as before: a report, 200.
    const ok = await postJson(`${free.url}/v1/templates/check`, brandPackage(known));
    assert.equal(ok.status, 200, await ok.clone().text());
    assert.equal(((await ok.json()) as { ok: boolean }).ok, true);
  });

  test('an unknown font id is a 400 at fonts.<family>, nothing stored; a bad family name is a 400 too', async () => {
    const unknown = `sha256:${'cd'.repeat(32)}`;
    const response = await putPackage(free, brandPackage(unknown));
    assert.equal(response.status, 400);
    const { error } = (await response.json()) as Refusal;
    assert.equal(error.issues[0]!.path, 'fonts.Brand Mono');
    assert.equal(error.issues[0]!.code, 'unknown_font');

    const preview = await postJson(`${free.url}/v1/templates/preview`, {
      design: brandPackage(unknown),
      invoice: EXAMPLE_INVOICE,
    });
    assert.equal(preview.status, 400);
    assert.equal(((await preview.json()) as Refusal).error.issues[0]!.path, 'design.fonts.Brand Mono');

    for (const family of ['Noto Sans', 'serif', 'brand-0123456789abcdef', 'Brand"} body{', '1Brand']) {
      const bad = await putPackage(free, { fonts: { [family]: unknown } });
      assert.equal(bad.status, 400, family);
      const issue = ((await bad.json()) as Refusal).error.issues[0]!;
      assert.match(issue.path, /^fonts/, family);
    }
  });

  test('a stored design whose font expired is a 400 at design before payment', async () => {
    const id = await putFont(priced, readFileSync(LARGE_FONT));
    const put = await putPackage(priced, brandPackage(id));
    assert.equal(put.status, 200);
    const design = ((await put.json()) as { id: string }).id;
    const reached = priced.paidCalls;
    const ok = await postJson(`${priced.url}/v1/invoice.pdf`, { ...EXAMPLE_INVOICE, design });
    assert.equal(ok.status, 402, 'with its font the request goes on to payment');
    assert.equal(priced.paidCalls, reached + 1);
    forgotten.add(id);
    const response = await postJson(`${priced.url}/v1/invoice.pdf`, { ...EXAMPLE_INVOICE, design });
    assert.equal(response.status, 400);
    const issue = ((await response.json()) as Refusal).error.issues[0]!;
    assert.equal(issue.path, 'design');
    assert.equal(issue.code, 'unknown_font');
    assert.match(issue.message, /Brand Mono/);
    assert.equal(priced.paidCalls, reached + 1, 'refused before payment');
  });
});
