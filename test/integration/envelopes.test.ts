import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import { DESIGNS } from '../../src/invoice/designFields.js';
import { ENVELOPES, ENVELOPE_NAMES } from '../../src/invoice/envelopes.js';
import { prepareInvoice } from '../../src/invoice/prepareInvoice.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { ENVELOPE_INVOICE } from '../fixtures/invoices.js';
import { pdfInfo, pdfWords, type PdfWord as Word } from '../fixtures/pdfTools.js';

/**
 * Window envelopes measured on the printed PDF: every word of the buyer's address lies inside the
 * envelope's address zone and the seller's return line inside its return zone, in millimetres
 * from the sheet's corner as pdftotext -bbox reports them, in every built-in design; page 1 as a
 * PNG has the address's ink in the window and the fold and hole marks in the left margin where the
 * standard puts them, clear of every word; the paper is the
 * envelope's; addresses that cannot fit are refused before anything is printed.
 */
let renderer: Renderer;
let dir: string;
before(async () => {
  renderer = await createRenderer({ poolSize: 1 });
  dir = mkdtempSync(join(tmpdir(), 'envelope-'));
});
after(async () => {
  await renderer?.close();
  rmSync(dir, { recursive: true, force: true });
});

function page1Png(pdf: Buffer): PNG {
  const file = join(dir, 'page.pdf');
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-png', '-r', '100', '-f', '1', '-l', '1', '-singlefile', file, join(dir, 'page')]);
  return PNG.sync.read(readFileSync(join(dir, 'page.png')));
}

/** Dark pixels within a rectangle given in millimetres. */
function inkIn(png: PNG, x: number, y: number, width: number, height: number): number {
  const px = (mm: number) => Math.round((mm / 25.4) * 100);
  let dark = 0;
  for (let row = px(y); row < px(y + height); row++)
    for (let column = px(x); column < px(x + width); column++) {
      const at = (row * png.width + column) * 4;
      if (png.data[at]! < 160 && png.data[at + 1]! < 160 && png.data[at + 2]! < 160) dark++;
    }
  return dark;
}

/** The horizontal strokes in page 1's left margin (the 16 mm left of the page area): centre y, x extent in mm. */
function marksInLeftMargin(png: PNG): { y: number; xMin: number; xMax: number }[] {
  const mm = (px: number) => Number(((px * 25.4) / 100).toFixed(2));
  const marginPx = Math.floor((16 / 25.4) * 100);
  const marks: { rows: number[]; xMin: number; xMax: number }[] = [];
  for (let row = 0; row < png.height; row++) {
    const dark: number[] = [];
    for (let column = 0; column < marginPx; column++) {
      const at = (row * png.width + column) * 4;
      if (png.data[at]! < 200 && png.data[at + 1]! < 200 && png.data[at + 2]! < 200) dark.push(column);
    }
    if (dark.length === 0) continue;
    const last = marks.at(-1);
    if (last !== undefined && last.rows.at(-1) === row - 1) {
      last.rows.push(row);
      last.xMin = Math.min(last.xMin, dark[0]!);
      last.xMax = Math.max(last.xMax, dark.at(-1)! + 1);
    } else marks.push({ rows: [row], xMin: dark[0]!, xMax: dark.at(-1)! + 1 });
  }
  return marks.map((mark) => ({
    y: mm((mark.rows[0]! + mark.rows.at(-1)! + 1) / 2),
    xMin: mm(mark.xMin),
    xMax: mm(mark.xMax),
  }));
}

const INVOICE = ENVELOPE_INVOICE;

describe('window envelopes', { timeout: 240_000 }, () => {
  for (const envelope of ENVELOPE_NAMES) {
    test(`${envelope}: the address in the window, the return line above it, fold marks, its paper`, async () => {
      const layout = ENVELOPES[envelope];
      const addressTop = layout.top + layout.returnHeight;
      for (const design of DESIGNS) {
        const { pdf } = await renderer.renderPdf(prepareInvoice({ ...INVOICE, envelope, design }));
        assert.match(pdfInfo(pdf)['Page size']!, layout.paper === 'A4' ? /\(A4\)/ : /\(letter\)/);
        const words = pdfWords(pdf);
        // Inside the zone by its clearance on every side (us-10: USPS's 1/8" = 3.175 mm to each
        // edge of the window; 0 for DIN 5008 and Swiss, whose zone is the text's own).
        const clear = envelope === 'us-10' ? 25.4 / 8 : 0;
        assert.equal(layout.clearance, clear);
        const inAddressZone = (word: Word) =>
          word.xMin >= layout.left + clear - 0.1 &&
          word.xMax <= layout.left + layout.width - clear + 0.1 &&
          word.yMin >= addressTop + clear - 0.1 &&
          word.yMax <= addressTop + layout.addressHeight - clear + 0.1;
        // Every line of the address, found in the zone: name, contact, street, city, country (cross-border).
        for (const expected of ['Acme', 'Accounts', 'Market', '94105', 'UNITED']) {
          const found = words.filter((word) => word.text.startsWith(expected) && inAddressZone(word));
          assert.equal(found.length, 1, `${envelope}/${design}: "${expected}" in the address zone`);
        }
        // The measured clear space to the zone's four edges, the smallest over the address's words.
        const address = words.filter(inAddressZone);
        const gaps = [
          Math.min(...address.map((word) => word.xMin - layout.left)),
          Math.min(...address.map((word) => layout.left + layout.width - word.xMax)),
          Math.min(...address.map((word) => word.yMin - addressTop)),
          Math.min(...address.map((word) => addressTop + layout.addressHeight - word.yMax)),
        ];
        assert.ok(
          gaps.every((gap) => gap >= clear - 0.1),
          `${envelope}/${design}: clear space left, right, top, bottom ${gaps.map((gap) => gap.toFixed(2)).join(', ')} mm`,
        );
        // The return line: the seller's name in the zone above, and nothing else of the page in the window.
        const returnWords = words.filter(
          (word) =>
            word.yMin >= layout.top - 0.1 &&
            word.yMax <= addressTop + 0.1 &&
            word.xMin >= layout.left - 0.1 &&
            word.xMax <= layout.left + layout.width + 0.1,
        );
        assert.ok(
          returnWords.some((word) => word.text === 'Northwind'),
          `${envelope}/${design}: return line`,
        );
        const intruders = words.filter(
          (word) =>
            word.xMax > layout.left &&
            word.xMin < layout.left + layout.width &&
            word.yMax > layout.top &&
            word.yMin < addressTop + layout.addressHeight &&
            !returnWords.includes(word) &&
            !inAddressZone(word),
        );
        assert.deepEqual(
          intruders.map((word) => word.text),
          [],
          `${envelope}/${design}: nothing else in the window`,
        );
        // Page 1 as a picture: the address's ink in the window, each fold mark's ink in the left margin.
        const png = page1Png(pdf);
        assert.ok(inkIn(png, layout.left, addressTop, layout.width, layout.addressHeight) > 200, 'address ink');
        // The marks: in the left margin near the sheet's edge (4 mm in), each within 1 mm of where the
        // standard puts it, nothing else drawn there, and no word of the page on or beside a mark.
        const marks = marksInLeftMargin(png);
        const expected = [...layout.folds, ...(layout.hole === null ? [] : [layout.hole])].sort((a, b) => a - b);
        assert.equal(marks.length, expected.length, `${envelope}/${design}: marks ${JSON.stringify(marks)}`);
        marks.forEach((mark, index) => {
          assert.ok(Math.abs(mark.y - expected[index]!) <= 1, `${envelope}/${design}: mark at ${mark.y} mm`);
          assert.ok(Math.abs(mark.xMin - 4) <= 1, `${envelope}/${design}: mark starts at ${mark.xMin} mm`);
          const length = expected[index] === layout.hole ? 8 : 5;
          assert.ok(Math.abs(mark.xMax - mark.xMin - length) <= 1, `${envelope}/${design}: mark length`);
          const touching = words.filter(
            (word) => word.xMin < mark.xMax + 1 && word.yMin < mark.y + 1 && word.yMax > mark.y - 1,
          );
          assert.deepEqual(
            touching.map((word) => word.text),
            [],
            `${envelope}/${design}: text at the mark ${mark.y} mm`,
          );
        });
      }
    });
  }

  test('an address the window cannot hold is refused naming buyer and its number of lines', () => {
    const long = {
      ...INVOICE,
      envelope: 'us-10' as const,
      buyer: { ...INVOICE.buyer, street: '500 Market Street\nSuite 400\nBuilding C\nDock 7' },
    };
    assert.throws(
      () => prepareInvoice(long),
      (error: { issues: { path: string; code: string; message: string }[] }) => {
        const issue = error.issues.find((each) => each.path === 'buyer')!;
        assert.equal(issue.code, 'address_too_long');
        assert.match(issue.message, /has 8 address lines.*at most 5/);
        return true;
      },
    );
    // Blank lines do not count: the postal rule drops them.
    prepareInvoice({
      ...INVOICE,
      envelope: 'din-5008-b',
      buyer: { ...INVOICE.buyer, street: '500 Market Street\n\n' },
    });
    // A domestic letter has no country line.
    const domestic = prepareInvoice({ ...INVOICE, envelope: 'us-10', seller: { ...INVOICE.seller, country: 'US' } });
    assert.ok(domestic);
  });

  test('us-10 prints on US Letter, so a Swiss QR-bill (A4) with it is refused', () => {
    assert.throws(
      () =>
        prepareInvoice({
          ...INVOICE,
          currency: 'CHF',
          envelope: 'us-10',
          seller: { ...INVOICE.seller, street: 'Rue du Lac 1268', postal_code: '2501', city: 'Biel', country: 'CH' },
          payment: { qr_iban: 'CH4431999123000889012', qr_reference: '210000000003139471430009017' },
        }),
      (error: { issues: { path: string; code: string }[] }) =>
        error.issues.some((issue) => issue.path === 'envelope' && issue.code === 'paper_conflict'),
    );
  });
});
