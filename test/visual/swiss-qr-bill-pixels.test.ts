import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { choosePaymentQr, type SwissQr } from '../../src/invoice/paymentQr/index.js';
import { buildSwissQrBillView } from '../../src/render/swissQrBillView.js';
import { PROJECT_ROOT } from '../../src/render/templates.js';
import { SCHEME_INPUTS } from '../fixtures/paymentQrInputs.js';
import { openPagePrinter, pdfToPngs, swissQrBillPage, type PagePrinter } from '../fixtures/qrPages.js';

/**
 * What the Swiss QR-bill page looks like (templates/partials/swiss-qr-bill.hbs with
 * styles/qr-bill.css, printed as the renderer prints), compared with
 * test/golden/png/swiss-qr-bill-1.png as test/visual/pdf-pixels.test.ts compares invoices.
 * UPDATE_GOLDEN=1 (npm run golden:update) rewrites it.
 */
const GOLDEN = join(PROJECT_ROOT, 'test', 'golden', 'png', 'swiss-qr-bill-1.png');
const DPI = 50;
const THRESHOLD = 0.1;
const MAX_DIFF_RATIO = 0.005;

let printer: PagePrinter;
before(async () => {
  printer = await openPagePrinter();
});
after(async () => {
  await printer.close();
});

test(
  `the Swiss QR-bill page matches test/golden/png/swiss-qr-bill-1.png (≤ ${MAX_DIFF_RATIO * 100}% of pixels differ)`,
  { timeout: 120_000 },
  async () => {
    const choice = choosePaymentQr(SCHEME_INPUTS.swiss);
    assert.ok(choice.kind === 'qr');
    const pdf = await printer.print(swissQrBillPage(buildSwissQrBillView(choice.qr as SwissQr, 'de')));
    const pages = pdfToPngs(pdf, DPI);
    assert.equal(pages.length, 1);
    if (process.env.UPDATE_GOLDEN === '1') {
      mkdirSync(join(PROJECT_ROOT, 'test', 'golden', 'png'), { recursive: true });
      writeFileSync(GOLDEN, pages[0]!);
    }
    assert.ok(existsSync(GOLDEN), 'no golden yet: run npm run golden:update');
    const actual = PNG.sync.read(pages[0]!);
    const golden = PNG.sync.read(readFileSync(GOLDEN));
    assert.deepEqual([actual.width, actual.height], [golden.width, golden.height], 'page size changed');
    const diff = new PNG({ width: actual.width, height: actual.height });
    const differing = pixelmatch(actual.data, golden.data, diff.data, actual.width, actual.height, {
      threshold: THRESHOLD,
    });
    const ratio = differing / (actual.width * actual.height);
    if (ratio > MAX_DIFF_RATIO) {
      const dir = mkdtempSync(join(tmpdir(), 'swiss-qr-bill-pixels-'));
      writeFileSync(join(dir, 'actual.png'), pages[0]!);
      writeFileSync(join(dir, 'diff.png'), PNG.sync.write(diff));
      assert.fail(
        `${(ratio * 100).toFixed(3)}% of pixels differ (${differing}); actual and diff in ${dir}. If intended, run npm run golden:update.`,
      );
    }
  },
);
