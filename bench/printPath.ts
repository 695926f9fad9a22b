/**
 * Why the renderer prints the way it does: `npm run bench:print-path` (about 35 s). On one
 * warm page of one browser, for 1-, 20- and 200-line invoices, it prints the same invoice with
 *   current         what the service does: printHtml (Page.setDocumentContent + Page.printToPDF),
 *                   the printed copy with SCREEN_OFF_CSS, the footer in the page
 *   puppeteer-calls page.setContent + page.pdf instead of the two DevTools calls
 *   screen-layout   without SCREEN_OFF_CSS (Chromium lays the page out for the screen too)
 *   footer-template Chromium's footerTemplate for the footer, as this service did before
 *   one-font        one font family ("Noto Sans") instead of the per-script fallback stack
 *   no-page-count   without the "Page X of Y" margin box (counter(pages))
 * (the last two are features the invoice cannot give up; they show what each costs)
 * and prints each one's median time and its ratio to `current`, samples alternating variant by
 * variant so that the machine's drift hits all alike. Also checks that every variant prints the
 * same number of pages. BENCH_PRINT_SAMPLES (default 30) samples per variant and size.
 */
import type { Page } from 'puppeteer-core';
import { prepareInvoice } from '../src/invoice/prepareInvoice.js';
import { lockDownPage } from '../src/render/lockDownPage.js';
import { pdfPageCount } from '../src/render/pdfInfo.js';
import { printParams } from '../src/render/printOptions.js';
import { openPrintablePage, printHtml, type PrintablePage } from '../src/render/printPage.js';
import { loadInvoiceTemplates, SCREEN_OFF_CSS } from '../src/render/templates.js';
import { invoiceWithItems } from '../test/fixtures/invoices.js';
import { launchBenchBrowser } from './benchBrowser.js';
import { percentile } from './measure.js';
import { pdfOptions } from './printCalls.js';
import { scaled } from './scale.js';

const SAMPLES = scaled(Number(process.env.BENCH_PRINT_SAMPLES ?? 30));
const SIZES = [1, 20, 200];

/** The footer as Chromium's footerTemplate drew it before: its own little document, own styles. */
const FOOTER_TEMPLATE = (invoiceNumber: string) => `<style>
  .f { box-sizing: border-box; width: 100%; padding: 0 16mm; display: flex; justify-content: space-between;
       font-family: "Noto Sans", "DejaVu Sans", sans-serif; font-size: 7.5pt; color: #6b7280; -webkit-print-color-adjust: exact; }
  .p { color: #0f5c6e; }
</style><div class="f"><span>Invoice ${invoiceNumber}</span><span class="p">Page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>`;

type Print = (html: string) => Promise<Uint8Array>;

async function main() {
  const { browser, close } = await launchBenchBrowser();
  const templates = loadInvoiceTemplates();
  try {
    const page: Page = await browser.newPage();
    await lockDownPage(page);
    const printable: PrintablePage = await openPrintablePage(page);
    const params = printParams('Letter', false);
    const options = pdfOptions(params);
    process.stdout.write(`print path, ${SAMPLES} samples per variant and size, median ms (ratio to current)\n`);
    for (const size of SIZES) {
      const view = templates.view(prepareInvoice(invoiceWithItems(size)));
      const printed = templates.printPage(view);
      const shown = templates.page(view);
      const withoutPageCount = printed.replace(/@bottom-right\s*\{[^}]*\}/, '');
      // The footer-template variant: no footer in the page, Chromium's template instead.
      const withoutPageFooter = withoutPageCount.replace(/<footer class="page-footer">[\s\S]*?<\/footer>/, '');
      const oneFont = printed.replace(
        '</head>',
        '<style>html, [lang], .num { font-family: "Noto Sans" !important; }</style></head>',
      );
      const variants: Record<string, { html: string; print: Print }> = {
        current: { html: printed, print: (html) => printHtml(printable, html, params) },
        'puppeteer-calls': {
          html: printed,
          print: async (html) => {
            await page.setContent(html, { waitUntil: 'load' });
            return page.pdf(options);
          },
        },
        'screen-layout': { html: shown, print: (html) => printHtml(printable, html, params) },
        'footer-template': {
          html: withoutPageFooter,
          print: async (html) => {
            await page.setContent(html, { waitUntil: 'load' });
            return page.pdf({
              ...options,
              displayHeaderFooter: true,
              headerTemplate: '<span></span>',
              footerTemplate: FOOTER_TEMPLATE(view.invoiceNumber),
            });
          },
        },
        'one-font': { html: oneFont, print: (html) => printHtml(printable, html, params) },
        'no-page-count': { html: withoutPageCount, print: (html) => printHtml(printable, html, params) },
      };
      if (size === SIZES[0])
        process.stdout.write(`${['lines', ...Object.keys(variants)].map((cell) => cell.padEnd(22)).join('')}\n`);
      if (
        !printed.includes(SCREEN_OFF_CSS) ||
        withoutPageFooter === withoutPageCount ||
        oneFont === printed ||
        withoutPageCount === printed
      )
        throw new Error('the variants did not come out as intended');
      const times: Record<string, number[]> = {};
      const pages: Record<string, number> = {};
      for (let round = -scaled(3); round < SAMPLES; round++) {
        for (const [name, variant] of Object.entries(variants)) {
          const started = performance.now();
          const pdf = await variant.print(variant.html);
          const ms = performance.now() - started;
          if (round < 0) continue; // warm-up
          (times[name] ??= []).push(ms);
          pages[name] = pdfPageCount(Buffer.from(pdf));
        }
      }
      const current = percentile(times.current!, 50);
      const cells = Object.keys(variants).map((name) => {
        const median = percentile(times[name]!, 50);
        return name === 'current' ? `${median.toFixed(1)}` : `${median.toFixed(1)} (${(median / current).toFixed(2)}×)`;
      });
      process.stdout.write(`${[String(size), ...cells].map((cell) => cell.padEnd(22)).join('')}\n`);
      const counts = new Set(Object.values(pages));
      if (counts.size !== 1)
        throw new Error(`the variants printed different page counts for ${size} lines: ${JSON.stringify(pages)}`);
    }
  } finally {
    templates.close();
    await close();
  }
}

await main();
