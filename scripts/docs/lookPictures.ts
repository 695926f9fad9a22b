/**
 * The pictures of docs/designs.md's brand fonts and window envelopes, made again from the service
 * itself (npm run docs:pictures): page 1 of the example invoice, printed by the real renderer,
 * rasterised with pdftoppm at 60 dpi. On the envelope pictures the window's address field is
 * outlined in red and its address zone in blue, drawn on the PNG for review only: the product's
 * PDFs carry no outline.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { readFontFile } from '../../src/fonts/fontFile.js';
import { ENVELOPES, ENVELOPE_NAMES, type EnvelopeLayout } from '../../src/invoice/envelopes.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { ENVELOPE_INVOICE } from '../../test/fixtures/invoices.js';
import { prepareInvoice, type PreparedInvoice } from '../../src/invoice/prepareInvoice.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';

const DPI = 60;
const IMAGES = join(import.meta.dirname, '..', '..', 'docs', 'images');
/** A font of about 340 KB, as brand fonts are; installed with the service's fonts (fonts-dejavu-core). */
const BRAND_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf';

const dir = mkdtempSync(join(tmpdir(), 'look-pictures-'));

function page1(pdf: Buffer): PNG {
  writeFileSync(join(dir, 'page.pdf'), pdf);
  execFileSync('pdftoppm', [
    '-png',
    '-r',
    String(DPI),
    '-f',
    '1',
    '-l',
    '1',
    '-singlefile',
    join(dir, 'page.pdf'),
    join(dir, 'page'),
  ]);
  return PNG.sync.read(readFileSync(join(dir, 'page.png')));
}

/** A rectangle's outline, 1 px, given in millimetres from the sheet's corner. */
function outline(png: PNG, box: { left: number; top: number; width: number; height: number }, rgb: number[]) {
  const px = (mm: number) => Math.round((mm / 25.4) * DPI);
  const [x0, y0, x1, y1] = [px(box.left), px(box.top), px(box.left + box.width), px(box.top + box.height)];
  const set = (x: number, y: number) => {
    const at = (y * png.width + x) * 4;
    [png.data[at], png.data[at + 1], png.data[at + 2]] = rgb as [number, number, number];
  };
  for (let x = x0; x <= x1; x++) [y0, y1].forEach((y) => set(x, y));
  for (let y = y0; y <= y1; y++) [x0, x1].forEach((x) => set(x, y));
}

function envelopePicture(png: PNG, layout: EnvelopeLayout): PNG {
  const field = { left: layout.left, top: layout.top, width: layout.width };
  outline(png, { ...field, height: layout.returnHeight + layout.addressHeight }, [220, 0, 0]);
  const zone = { ...field, top: layout.top + layout.returnHeight, height: layout.addressHeight };
  outline(png, zone, [0, 80, 220]);
  // The clear space the text keeps from the window's edges (us-10: USPS's 1/8"), in green.
  const clear = layout.clearance;
  if (clear > 0)
    outline(
      png,
      {
        left: zone.left + clear,
        top: zone.top + clear,
        width: zone.width - 2 * clear,
        height: zone.height - 2 * clear,
      },
      [0, 150, 60],
    );
  return png;
}

async function main(renderer: Renderer): Promise<void> {
  const print = async (prepared: PreparedInvoice) => page1((await renderer.renderPdf(prepared)).pdf);
  for (const envelope of ENVELOPE_NAMES) {
    const png = envelopePicture(await print(prepareInvoice({ ...ENVELOPE_INVOICE, envelope })), ENVELOPES[envelope]);
    writeFileSync(join(IMAGES, `envelope-${envelope}.png`), PNG.sync.write(png));
  }
  // A brand font as PUT /v1/fonts stores it (its id the SHA-256 of the bytes), as text and headings.
  const bytes = readFileSync(BRAND_FONT);
  const font = { facts: readFontFile(bytes), base64: bytes.toString('base64') };
  const plain = prepareInvoice(EXAMPLE_INVOICE);
  const branded = prepareInvoice({ ...EXAMPLE_INVOICE, theme: { font: font.facts.id, heading_font: font.facts.id } });
  writeFileSync(join(IMAGES, 'font-before.png'), PNG.sync.write(await print(plain)));
  writeFileSync(
    join(IMAGES, 'font-after.png'),
    PNG.sync.write(await print({ ...branded, fonts: { font, heading_font: font } })),
  );
}

const renderer = await createRenderer({ poolSize: 1 });
try {
  await main(renderer);
} finally {
  await renderer.close();
  rmSync(dir, { recursive: true, force: true });
}
