import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { fontFaceCss } from '../../src/fonts/fontFace.js';
import { readFontFile } from '../../src/fonts/fontFile.js';
import { FONT_ORIGIN } from '../../src/fonts/servedFonts.js';
import { chromiumArgs } from '../../src/render/browser.js';
import { findChromium, headlessMode } from '../../src/render/chromiumPath.js';
import { lockDownPage } from '../../src/render/lockDownPage.js';
import { printParams } from '../../src/render/printOptions.js';
import { openPrintablePage, printHtml, type PrintablePage } from '../../src/render/printPage.js';
import { pdfFonts, pdfPages } from '../fixtures/pdfTools.js';
import { latinOnlyFont } from '../support/testFonts.js';

/**
 * How a stored font reaches a render page (src/render/pageFonts.ts): its @font-face rule is taken
 * out of the document and the page is given the font's bytes over DevTools once, then holds it
 * across renders; no request is ever made for it; a face whose bytes are not registered fails the
 * render instead of printing in another font.
 */
let browser: Browser;
let page: Page;
let printable: PrintablePage;
/** Every request the page made (the lock-down aborts them all). */
const requests: string[] = [];
/** DevTools calls that gave the page fonts (Runtime.evaluate on the print session). */
let fontChanges = 0;

before(
  async () => {
    const executablePath = findChromium();
    browser = await puppeteer.launch({
      executablePath,
      headless: headlessMode(executablePath),
      pipe: true,
      args: chromiumArgs(true),
    });
    page = await browser.newPage();
    await lockDownPage(page);
    page.on('request', (request) => {
      if (!request.isNavigationRequest()) requests.push(request.url());
    });
    printable = await openPrintablePage(page);
    const send = printable.session.send.bind(printable.session);
    printable.session.send = ((method: string, ...rest: unknown[]) => {
      if (method === 'Runtime.evaluate') fontChanges++;
      return (send as (method: string, ...rest: unknown[]) => Promise<unknown>)(method, ...rest);
    }) as typeof printable.session.send;
  },
  { timeout: 60_000 },
);
after(() => browser?.close());

const pageIn = (css: string, text: string) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${css} p { font-family: "brand-test", "DejaVu Sans"; }</style></head><body><p>${text}</p></body></html>`;

test('a stored font is given to the page once and printed from the first render on, with no request', async () => {
  const bytes = await latinOnlyFont('woff2');
  const font = { facts: readFontFile(bytes), base64: bytes.toString('base64') };
  const css = fontFaceCss([{ family: 'brand-test', font }]);
  assert.ok(!css.includes('data:'), 'the bytes are not in the CSS');
  const url = `${FONT_ORIGIN}${font.facts.id.replace('sha256:', '')}`;
  assert.ok(css.includes(`url("${url}")`), css);

  for (let render = 0; render < 4; render++) {
    const pdf = await printHtml(printable, pageIn(css, `Render ${render} in the brand font`), printParams('A4', false));
    const fonts = pdfFonts(pdf);
    assert.ok(
      fonts.some((face) => face.name.endsWith('+NotoSerif-Regular') && face.embedded && face.subset),
      `render ${render}: ${JSON.stringify(fonts)}`,
    );
    assert.ok(!fonts.some((face) => face.name.includes('DejaVu')), 'nothing printed in the fallback font');
    assert.match(pdfPages(pdf)[0]!, new RegExp(`Render ${render} in the brand font`));
  }
  assert.equal(fontChanges, 1, 'the font given once for four renders');
  assert.deepEqual(requests, [], 'no request');
});

test('the page holds exactly the faces each render declares: another font in the same slot, none when none is declared', async () => {
  const regular = await latinOnlyFont('woff2');
  const bold = await latinOnlyFont('woff2', 'bold');
  const face = (bytes: Buffer) =>
    fontFaceCss([
      { family: 'brand-test', font: { facts: readFontFile(bytes), base64: bytes.toString('base64') }, weight: 400 },
    ]);
  const printedIn = async (css: string) =>
    pdfFonts(await printHtml(printable, pageIn(css, 'Which font'), printParams('A4', false))).map((font) =>
      font.name.replace(/^[A-Z]{6}\+/, ''),
    );
  assert.deepEqual(await printedIn(face(bold)), ['NotoSerif-Bold']);
  assert.deepEqual(await printedIn(face(regular)), ['NotoSerif-Regular']);
  assert.deepEqual(await printedIn(''), ['DejaVuSans'], 'a font the page held is not used unless declared');
});

test('a font whose bytes are not registered fails the render instead of printing another font', async () => {
  const bytes = await latinOnlyFont('woff');
  const font = { facts: readFontFile(bytes), base64: bytes.toString('base64') };
  const hex = font.facts.id.replace('sha256:', '');
  const css = fontFaceCss([{ family: 'brand-test', font }]).replace(hex, '0'.repeat(64));
  await assert.rejects(
    printHtml(printable, pageIn(css, 'No font'), printParams('A4', false)),
    /stored fonts did not load: brand-test/,
  );
  assert.deepEqual(requests, [], 'nothing asked for on the network');
  // The page recovers: the next render holds what it declares.
  const pdf = await printHtml(
    printable,
    pageIn(fontFaceCss([{ family: 'brand-test', font }]), 'Again'),
    printParams('A4', false),
  );
  assert.ok(pdfFonts(pdf).some((face) => face.name.endsWith('+NotoSerif-Regular')));
});
