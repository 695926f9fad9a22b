import type { Page, PDFOptions } from 'puppeteer-core';
import { PAGE_MARGINS, type PrintParams } from '../src/render/printOptions.js';
import { openPrintablePage, printHtml } from '../src/render/printPage.js';

/**
 * The two ways the benchmarks print a page:
 *  - `standard`: puppeteer's page.setContent + page.pdf, the calls that define the floor and
 *    the naive approach with, and what code written against puppeteer's documentation does;
 *  - `lean`: the service's own two DevTools calls (src/render/printPage.ts).
 * Both print the same PDF for the same HTML and parameters (bench/printPath.ts checks the pages).
 */
export type PrintCalls = 'standard' | 'lean';

export type PagePrinter = (html: string, params: PrintParams) => Promise<Uint8Array>;

export async function pagePrinter(page: Page, calls: PrintCalls): Promise<PagePrinter> {
  if (calls === 'lean') {
    const printable = await openPrintablePage(page);
    return (html, params) => printHtml(printable, html, params);
  }
  return async (html, params) => {
    await page.setContent(html, { waitUntil: 'load' });
    return page.pdf(pdfOptions(params));
  };
}

/**
 * page.pdf options equal to `params`. waitForFonts off, as the service would have it with
 * page.pdf: the pages have only system fonts, so the wait is a round trip for nothing, and
 * leaving it on would make the standard calls look slower than they need to be.
 */
export function pdfOptions(params: PrintParams): PDFOptions {
  return {
    width: `${params.paperWidth}in`,
    height: `${params.paperHeight}in`,
    margin: PAGE_MARGINS,
    printBackground: params.printBackground ?? false,
    displayHeaderFooter: false,
    preferCSSPageSize: false,
    tagged: params.generateTaggedPDF ?? false,
    outline: params.generateDocumentOutline ?? false,
    waitForFonts: false,
  };
}
