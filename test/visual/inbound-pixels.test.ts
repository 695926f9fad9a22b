import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { compareTotals } from '../../src/einvoice/inbound/inboundTotals.js';
import { readInbound } from '../../src/einvoice/inbound/readInbound.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { PROJECT_ROOT } from '../../src/render/templates.js';
import { CORPUS_ABSENT_MESSAGE, CORPUS_PRESENT, SHARED_EINVOICE } from '../support/inboundCorpus.js';

/**
 * What an inbound e-invoice's PDF (POST /v1/e-invoice/render.pdf) looks like, as in
 * pdf-pixels.test.ts: the real renderer prints a corpus file, Poppler draws each page at 50 dpi,
 * and each page is compared with test/golden/png/<fixture>-<page>.png. One per syntax (CII, UBL,
 * the XML of a hybrid PDF), one right to left, one credit note. UPDATE_GOLDEN=1 rewrites them.
 */
const GOLDEN_DIR = join(PROJECT_ROOT, 'test', 'golden', 'png');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const DPI = 50;
const THRESHOLD = 0.1;
const MAX_DIFF_RATIO = 0.005;

const FIXTURES: Record<string, { file: string; locale?: string }> = {
  'inbound-cii': { file: 'corpus/xrechnung/cii/01.01a-INVOICE_uncefact.xml' },
  'inbound-ubl': { file: 'corpus/peppol/base-example.xml' },
  'inbound-hybrid-pdf-de': { file: 'corpus/mixed/fx-en16931-einfach.pdf', locale: 'de-DE' },
  'inbound-he-rtl': { file: 'corpus/xrechnung/ubl/01.03a-INVOICE_ubl.xml', locale: 'he-IL' },
  'inbound-credit-note-sv': { file: 'corpus/mixed/peppol-creditnote-min.ubl.xml', locale: 'sv-SE' },
};

let renderer: Renderer;
before(async () => {
  if (CORPUS_PRESENT) renderer = await createRenderer({ poolSize: 1 });
});
after(async () => {
  await renderer?.close();
});

describe(
  `inbound PDF pages match test/golden/png (≤ ${MAX_DIFF_RATIO * 100}% of pixels differ)`,
  { timeout: 120_000, skip: CORPUS_PRESENT ? false : CORPUS_ABSENT_MESSAGE },
  () => {
    for (const [name, { file, locale }] of Object.entries(FIXTURES)) {
      test(name, async () => {
        const { invoice } = readInbound(
          readFileSync(join(SHARED_EINVOICE, file)),
          file.endsWith('.pdf') ? 'pdf' : 'xml',
        );
        const { pdf } = await renderer.renderInboundPdf({ invoice, totals: compareTotals(invoice), locale, notes: [] });
        const pages = pdfPagesAsPng(pdf);
        const golden = (index: number) => join(GOLDEN_DIR, `${name}-${index + 1}.png`);
        if (UPDATE) {
          mkdirSync(GOLDEN_DIR, { recursive: true });
          for (const stale of readdirSync(GOLDEN_DIR).filter((entry) => new RegExp(`^${name}-\\d+\\.png$`).test(entry)))
            unlinkSync(join(GOLDEN_DIR, stale));
          pages.forEach((png, index) => writeFileSync(golden(index), png));
        }
        const goldenCount = readdirSync(GOLDEN_DIR).filter((entry) =>
          new RegExp(`^${name}-\\d+\\.png$`).test(entry),
        ).length;
        assert.equal(
          pages.length,
          goldenCount,
          `${name}: ${pages.length} pages printed, ${goldenCount} golden pages; if intended, run npm run golden:update`,
        );
        const failures: string[] = [];
        const diffDir = mkdtempSync(join(tmpdir(), `inbound-pixels-${name}-`));
        pages.forEach((png, index) => {
          const actual = PNG.sync.read(png);
          const expected = PNG.sync.read(readFileSync(golden(index)));
          if (actual.width !== expected.width || actual.height !== expected.height) {
            failures.push(
              `page ${index + 1}: ${actual.width}×${actual.height} px, golden ${expected.width}×${expected.height} px`,
            );
            return;
          }
          const diff = new PNG({ width: actual.width, height: actual.height });
          const ratio =
            pixelmatch(actual.data, expected.data, diff.data, actual.width, actual.height, { threshold: THRESHOLD }) /
            (actual.width * actual.height);
          if (ratio > MAX_DIFF_RATIO) {
            writeFileSync(join(diffDir, `${name}-${index + 1}-diff.png`), PNG.sync.write(diff));
            writeFileSync(join(diffDir, `${name}-${index + 1}-actual.png`), png);
            failures.push(`page ${index + 1}: ${(ratio * 100).toFixed(3)}% of pixels differ; diff in ${diffDir}`);
          }
        });
        if (failures.length === 0) rmSync(diffDir, { recursive: true, force: true });
        assert.deepEqual(
          failures,
          [],
          `${name} looks different from test/golden/png. If intended, run npm run golden:update.`,
        );
      });
    }
  },
);

function pdfPagesAsPng(pdf: Buffer): Buffer[] {
  const dir = mkdtempSync(join(tmpdir(), 'inbound-pixels-'));
  try {
    writeFileSync(join(dir, 'invoice.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', String(DPI), '-png', 'invoice.pdf', 'page'], { cwd: dir, timeout: 30_000 });
    const files = readdirSync(dir)
      .filter((file) => file.startsWith('page-') && file.endsWith('.png'))
      .sort();
    assert.ok(files.length > 0, 'pdftoppm drew no page');
    return files.map((file) => readFileSync(join(dir, file)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
