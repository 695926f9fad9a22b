import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { builtinPackage } from '../../src/render/builtinPackages.js';
import { REFERENCE_INVOICES } from '../../src/templates/contract/referenceInvoices.js';
import { pdfFonts, pdfPages } from '../fixtures/pdfTools.js';
import { LARGE_FONT } from '../support/testFonts.js';
import { postJson, startRenderingApp, type TestApp } from '../support/testApp.js';

/**
 * POST /v1/templates/preview looks up the invoice's stored theme and brand fonts as the paid routes
 * do: the studio previews the fonts a designer uploads in the invoice's theme. Before this, a font id
 * in the previewed invoice's theme reached the renderer unresolved and the preview answered 502.
 */
let app: TestApp;
before(async () => (app = await startRenderingApp()), { timeout: 60_000 });
after(() => app?.close());

const invoice = REFERENCE_INVOICES.find((reference) => reference.id === 'one-line')!.invoice;
const { name: _name, ...classic } = builtinPackage('classic');

const putJson = async (path: string, body: unknown) =>
  (await (
    await fetch(`${app.url}${path}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  ).json()) as { id: string };

test(
  'a preview prints in the brand font its theme names, inline or in a stored theme',
  { timeout: 120_000 },
  async () => {
    const font = (await (
      await fetch(`${app.url}/v1/fonts`, {
        method: 'PUT',
        headers: { 'content-type': 'font/ttf' },
        body: new Uint8Array(readFileSync(LARGE_FONT)),
      })
    ).json()) as { id: string };
    const theme = await putJson('/v1/themes', { font: font.id });
    const designId = (await putJson('/v1/templates', classic)).id;
    for (const [what, body] of [
      ['inline theme, package', { design: classic, invoice: { ...invoice, theme: { font: font.id } } }],
      ['stored theme, stored design', { design: designId, invoice: { ...invoice, theme: theme.id } }],
    ] as const) {
      const response = await postJson(`${app.url}/v1/templates/preview`, body);
      assert.equal(response.status, 200, `${what}: ${response.status === 200 ? '' : await response.text()}`);
      const pdf = Buffer.from(await response.arrayBuffer());
      assert.ok(
        pdfFonts(pdf).some((used) => /DejaVuSansMono/.test(used.name)),
        `${what}: the brand font is in the PDF`,
      );
      assert.ok(
        pdfPages(pdf).every((page) => page.includes('PREVIEW')),
        `${what}: watermarked`,
      );
    }
  },
);

test('an unknown font id in the previewed invoice is a 400 naming its field', async () => {
  const unknown = `sha256:${'0'.repeat(64)}`;
  const response = await postJson(`${app.url}/v1/templates/preview`, {
    design: classic,
    invoice: { ...invoice, theme: { font: unknown } },
  });
  assert.equal(response.status, 400);
  const { error } = (await response.json()) as { error: { issues: { path: string; code: string }[] } };
  assert.deepEqual(
    error.issues.map(({ path, code }) => ({ path, code })),
    [{ path: 'invoice.theme.font', code: 'unknown_font' }],
  );
});
