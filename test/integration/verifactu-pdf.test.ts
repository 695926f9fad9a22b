import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { preparePrintedInvoice } from '../../src/einvoice/printing.js';
import { checkVerifactuRequest } from '../../src/einvoice/formats/verifactu/request.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { TEST_SETTINGS, VERIFACTU_EXAMPLES } from '../fixtures/verifactuExamples.js';
import { pdfToPngs, zbarRead } from '../fixtures/qrPages.js';
import { PNG } from 'pngjs';

/**
 * The QR tributario read back from the printed PDF (Chromium → pdftoppm 150 dpi → zbarimg) equals
 * a URL built by hand from the request, and the record of the same request carries the same URL;
 * "QR tributario:" above it and VERI*FACTU below it, at the top of page 1, in every design and in
 * a right-to-left language; before the EPC payment code (which zbarimg then finds second).
 */
const DPI = 150;
const F1 = VERIFACTU_EXAMPLES['F1 with 21 % and 10 %']!;
const BY_HAND =
  'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345674&numserie=F2026-0042&fecha=30-11-2026&importe=1002.10';

let renderer: Renderer;
before(async () => {
  renderer = await createRenderer({ poolSize: 1 });
});
after(async () => {
  await renderer.close();
});

const firstPageText = (pdf: Buffer) =>
  execFileSync('pdftotext', ['-f', '1', '-l', '1', '-layout', '-', '-'], { input: pdf, encoding: 'utf8' });

/** The top `heightMm` of a page, as a PNG of its own. */
function topOf(png: Buffer, heightMm: number): Buffer {
  const image = PNG.sync.read(png);
  const height = Math.round((heightMm * DPI) / 25.4);
  const top = new PNG({ width: image.width, height });
  image.data.copy(top.data, 0, 0, image.width * height * 4);
  return PNG.sync.write(top);
}

/**
 * In the top 58 mm (above the masthead): the first row with a dark run of 4 mm (the finder
 * patterns' top edge) and the width of everything dark, which is the code's (the caption and
 * the legend above and below it are narrower).
 */
function codeBox(png: Buffer): { topMm: number; widthMm: number } {
  const image = PNG.sync.read(topOf(png, 58));
  const dark = (x: number, y: number) => image.data[(y * image.width + x) * 4]! < 100;
  const run = Math.round((4 * DPI) / 25.4);
  let [top, left, right] = [Infinity, Infinity, -1];
  for (let y = 0; y < image.height; y++) {
    let length = 0;
    for (let x = 0; x < image.width; x++) {
      length = dark(x, y) ? length + 1 : 0;
      if (dark(x, y)) [left, right] = [Math.min(left, x), Math.max(right, x)];
      if (length >= run) top = Math.min(top, y);
    }
  }
  const mm = (px: number) => (px * 25.4) / DPI;
  return { topMm: mm(top), widthMm: mm(right - left + 1) };
}

/** Every code zbarimg finds on a page. */
function allCodes(png: Buffer): string[] {
  const xml = execFileSync('zbarimg', ['--xml', '-q', '-'], {
    input: png,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  return [...xml.matchAll(/<data><!\[CDATA\[([\s\S]*?)\]\]><\/data>/g)].map((match) => match[1]!);
}

describe('the QR tributario printed on the invoice PDF', { timeout: 240_000 }, () => {
  test('decodes to the URL built by hand, which the record of the same request carries', async () => {
    const checked = checkVerifactuRequest(
      { ...F1, verifactu: { ...F1.verifactu, environment: 'production' } },
      TEST_SETTINGS,
    );
    assert.ok(checked.record.kind === 'alta');
    assert.equal(checked.record.kind === 'alta' && checked.record.qrUrl, BY_HAND);
    const { pdf, pages } = await renderer.renderPdf(
      preparePrintedInvoice(F1, { now: TEST_SETTINGS.now.toISOString() }),
    );
    assert.equal(pages, 1);
    const [page] = pdfToPngs(pdf, DPI);
    assert.equal(zbarRead(page!), BY_HAND);
    const text = firstPageText(pdf);
    assert.ok(text.indexOf('QR tributario:') < text.indexOf('VERI*FACTU'), text);
    assert.ok(text.indexOf('VERI*FACTU') < text.indexOf('Ejemplo Soluciones SL'), 'both above the masthead');
    const box = codeBox(page!);
    assert.ok(box.topMm < 40, `code at the top (${box.topMm.toFixed(1)} mm)`);
    assert.ok(box.widthMm >= 30 && box.widthMm <= 40, `symbol ${box.widthMm.toFixed(1)} mm wide`);
  });

  test('with equivalence surcharge: the printed total, the record’s ImporteTotal and the QR’s importe agree', async () => {
    const request = { ...VERIFACTU_EXAMPLES['F1 with equivalence surcharge']!, locale: 'es-ES' };
    const { record } = checkVerifactuRequest(request, { ...TEST_SETTINGS, environment: 'production' });
    assert.ok(record.kind === 'alta');
    const { pdf } = await renderer.renderPdf(preparePrintedInvoice(request, { now: TEST_SETTINGS.now.toISOString() }));
    const [page] = pdfToPngs(pdf, DPI);
    const importe = new URL(zbarRead(page!)).searchParams.get('importe');
    // Spanish figures: 1.044,13 € is 1044.13.
    const text = firstPageText(pdf).replace(/\u00a0|\u202f/g, ' ');
    const total = /Total factura(?: EUR)?\s+([\d.,]+)\s*€/.exec(text)?.[1];
    assert.ok(total, text);
    assert.equal(total.replace(/\./g, '').replace(',', '.'), record.importeTotal);
    assert.equal(importe, record.importeTotal);
    assert.equal(record.importeTotal, '1044.13');
    // Each surcharge is a row of its own, in the totals and in the VAT breakdown.
    assert.equal(text.match(/Recargo de equivalencia \(5,2 %\)\s+41,60 €/g)?.length, 1, text);
    assert.equal(text.match(/Recargo de equivalencia \(1,4 %\)\s+0,43 €/g)?.length, 1, text);
    assert.equal(text.match(/Recargo de equivalencia\s+5,2 %\s+800,00 €\s+41,60 €/g)?.length, 1, text);
  });

  for (const [design, locale] of [
    ['classic', 'en'],
    ['modern', 'es-ES'],
    ['compact', 'ar-EG'],
  ] as const)
    test(`${design}, ${locale}: first the QR tributario, then the EPC payment code; no VERI*FACTU legend in no-VERI*FACTU mode`, async () => {
      const request = {
        ...F1,
        design,
        locale,
        payment: { iban: 'ES9121000418450200051332', qr: 'auto' },
        verifactu: { ...F1.verifactu, mode: 'no_verifactu', environment: 'test' },
      };
      const prepared = preparePrintedInvoice(request, { now: TEST_SETTINGS.now.toISOString() });
      assert.ok(prepared.paymentQr, 'an EPC code is printed too');
      const { pdf } = await renderer.renderPdf(prepared);
      const [page] = pdfToPngs(pdf, DPI);
      const url = BY_HAND.replace('https://www2.agenciatributaria.gob.es', 'https://prewww2.aeat.es').replace(
        'ValidarQR?',
        'ValidarQRNoVerifactu?',
      );
      const all = allCodes(page!);
      assert.equal(all.length, 2, all.join('\n'));
      assert.ok(all.includes(url) && all.some((code) => code.startsWith('BCD\n')), all.join('\n'));
      // The top of the page holds the QR tributario alone; the payment code is further down.
      assert.equal(zbarRead(topOf(page!, 58)), url);
      const text = firstPageText(pdf);
      assert.ok(text.includes('QR tributario:') && !text.includes('VERI*FACTU'), text);
    });
});
