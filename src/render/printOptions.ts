import type { PDFOptions } from 'puppeteer-core';
import type { PaperFormat } from './paper.js';

/**
 * page.pdf() options. Margins live here rather than in CSS @page because Chromium draws the page
 * footer (footerTemplate) into the bottom margin, so the two must be sized together; the footer
 * template's side padding matches the side margins.
 *
 * Page numbers: Chromium's own header/footer templates, not CSS @page margin boxes. Both work in
 * Chromium 156, but the footer shows the invoice number, which is user text: in a template it is
 * HTML-escaped text like everywhere else, while in a margin box it would have to be written into
 * CSS `content:` and escaped for CSS, a second escaping scheme for one field.
 */
export const PAGE_MARGINS = { top: '14mm', right: '16mm', bottom: '18mm', left: '16mm' } as const;

export function printOptions(paper: PaperFormat, footerTemplate: string, tagged: boolean): PDFOptions {
  return {
    format: paper,
    printBackground: true,
    margin: PAGE_MARGINS,
    displayHeaderFooter: true,
    // An empty element: without a header template Chromium prints the date and title up there.
    headerTemplate: '<span></span>',
    footerTemplate,
    tagged,
    outline: false,
    preferCSSPageSize: false,
  };
}
