import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { prepareInvoice } from '../../src/invoice/prepareInvoice.js';
import type { InvoiceInput } from '../../src/invoice/schema.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { PROJECT_ROOT } from '../../src/render/templates.js';
import { ARABIC_INVOICE, CREDIT_NOTE, GERMAN_MIXED_RATE, JAPANESE_INVOICE } from '../fixtures/realWorldInvoices.js';
import { QR_INVOICES } from '../../src/invoice/examplePaymentQr.js';
import { invoiceWithItems } from '../fixtures/invoices.js';

/**
 * What the PDF looks like, page by page: the real renderer prints each fixture, Poppler draws the
 * pages at 50 dpi, and each page is compared with test/golden/png/<fixture>-<page>.png. The HTML
 * goldens (test/unit/render/templates.test.ts) catch changes to the markup; these catch changes
 * to the look: styles, fonts, page breaks. UPDATE_GOLDEN=1 (npm run golden:update) rewrites them.
 */
const GOLDEN_DIR = join(PROJECT_ROOT, 'test', 'golden', 'png');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const DPI = 50;
/** pixelmatch's per-pixel colour distance (0–1): anti-aliasing noise stays under it. */
const THRESHOLD = 0.1;
/** A page fails when more than this share of its pixels differ. */
const MAX_DIFF_RATIO = 0.005;

const FIXTURES: Record<string, InvoiceInput> = {
  // Letter (USD), one page.
  example: EXAMPLE_INVOICE,
  // A4 (EUR), several pages: the repeated table header, the break rules, the totals kept with the last lines.
  'multi-page': invoiceWithItems(45, { currency: 'EUR' }),
  // The real-world fields: German, two VAT rates, logo, accent, balance due (one A4 page).
  'de-mixed-rate-logo': GERMAN_MIXED_RATE,
  // Right to left, Arabic digits, reverse charge.
  'ar-rtl': ARABIC_INVOICE,
  // Japanese labels and dates, JPY, 10 % and 8 %.
  'ja-jpy': JAPANESE_INVOICE,
  'credit-note': CREDIT_NOTE,
  // The Swiss QR-bill on a page of its own after the invoice (payment part and receipt).
  'swiss-qr-invoice': QR_INVOICES.swiss,
  // The other designs (templates/designs/), in English, German, Arabic and Japanese; and a stamp.
  ...Object.fromEntries(
    (['modern', 'compact'] as const).flatMap((design) => [
      [`${design}-en`, { ...EXAMPLE_INVOICE, design }],
      [`${design}-de`, { ...GERMAN_MIXED_RATE, design }],
      [`${design}-ar`, { ...ARABIC_INVOICE, design }],
      [`${design}-ja`, { ...JAPANESE_INVOICE, design }],
    ]),
  ),
  'stamp-paid-de': { ...GERMAN_MIXED_RATE, stamp: 'paid' },
};

let renderer: Renderer;
before(async () => {
  renderer = await createRenderer({ poolSize: 1 });
});
after(async () => {
  await renderer.close();
});

describe(
  `PDF pages match test/golden/png (≤ ${MAX_DIFF_RATIO * 100}% of pixels differ, threshold ${THRESHOLD})`,
  { timeout: 120_000 },
  () => {
    for (const [name, input] of Object.entries(FIXTURES)) {
      test(name, async () => {
        const { pdf } = await renderer.renderPdf(prepareInvoice(input));
        const pages = pdfPagesAsPng(pdf);
        const goldenFiles = (index: number) => join(GOLDEN_DIR, `${name}-${index + 1}.png`);

        if (UPDATE) {
          mkdirSync(GOLDEN_DIR, { recursive: true });
          for (const stale of readdirSync(GOLDEN_DIR).filter((file) => file.startsWith(`${name}-`)))
            unlinkSync(join(GOLDEN_DIR, stale));
          pages.forEach((png, index) => writeFileSync(goldenFiles(index), png));
        }

        const goldenCount = readdirSync(GOLDEN_DIR).filter((file) =>
          new RegExp(`^${name}-\\d+\\.png$`).test(file),
        ).length;
        assert.equal(
          pages.length,
          goldenCount,
          `${name}: ${pages.length} pages printed, ${goldenCount} golden pages; if the change is intended, run npm run golden:update`,
        );

        const diffDir = mkdtempSync(join(tmpdir(), `pdf-pixels-${name}-`));
        const failures: string[] = [];
        const report: string[] = [];
        pages.forEach((png, index) => {
          const actual = PNG.sync.read(png);
          const golden = PNG.sync.read(readFileSync(goldenFiles(index)));
          const page = `page ${index + 1}`;
          if (actual.width !== golden.width || actual.height !== golden.height) {
            failures.push(
              `${page}: ${actual.width}×${actual.height} px, golden ${golden.width}×${golden.height} px (paper size changed?)`,
            );
            return;
          }
          const diff = new PNG({ width: actual.width, height: actual.height });
          const differing = pixelmatch(actual.data, golden.data, diff.data, actual.width, actual.height, {
            threshold: THRESHOLD,
          });
          const ratio = differing / (actual.width * actual.height);
          report.push(`${page}: ${(ratio * 100).toFixed(3)}%`);
          if (ratio > MAX_DIFF_RATIO) {
            const diffFile = join(diffDir, `${name}-${index + 1}-diff.png`);
            writeFileSync(diffFile, PNG.sync.write(diff));
            writeFileSync(join(diffDir, `${name}-${index + 1}-actual.png`), png);
            failures.push(`${page}: ${(ratio * 100).toFixed(3)}% of pixels differ (${differing}); diff in ${diffFile}`);
          }
        });
        if (failures.length === 0) rmSync(diffDir, { recursive: true, force: true });
        assert.deepEqual(
          failures,
          [],
          `${name} looks different from test/golden/png (${report.join(', ')}). If the change is intended, run npm run golden:update.`,
        );
      });
    }
  },
);

/** Each page of the PDF as a PNG, drawn by pdftoppm. */
function pdfPagesAsPng(pdf: Buffer): Buffer[] {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-pixels-'));
  try {
    writeFileSync(join(dir, 'invoice.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', String(DPI), '-png', 'invoice.pdf', 'page'], { cwd: dir, timeout: 30_000 });
    // pdftoppm pads page numbers to one width, so the names sort in page order.
    const files = readdirSync(dir)
      .filter((file) => file.startsWith('page-') && file.endsWith('.png'))
      .sort();
    assert.ok(files.length > 0 && existsSync(join(dir, files[0]!)), 'pdftoppm drew no page');
    return files.map((file) => readFileSync(join(dir, file)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
