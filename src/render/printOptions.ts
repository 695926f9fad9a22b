import type { PDFOptions } from 'puppeteer-core';
import type { PaperFormat } from './paper.js';

/**
 * page.pdf() options. Margins live here rather than in CSS @page so that the development preview
 * can draw the same page (it reads PAGE_MARGINS); the page footer sits at the bottom of the page
 * area and in the 10 mm bottom margin (styles/print.css).
 *
 * No displayHeaderFooter: Chromium's header and footer templates are laid out as a separate
 * document for every page, which cost ≈ 15 ms on a 10-page invoice. The footer is part of the
 * page instead (templates/partials/page-footer.hbs, styles/print.css).
 */
export const PAGE_MARGINS = { top: '14mm', right: '16mm', bottom: '10mm', left: '16mm' } as const;

export function printOptions(paper: PaperFormat, tagged: boolean): PDFOptions {
  return {
    format: paper,
    printBackground: true,
    margin: PAGE_MARGINS,
    displayHeaderFooter: false,
    tagged,
    outline: false,
    preferCSSPageSize: false,
    // Puppeteer otherwise first awaits document.fonts.ready in an isolated world: a round trip
    // worth ≈ 1.5 ms per render, for web fonts the page can never have (only system fonts, offline).
    waitForFonts: false,
  };
}
