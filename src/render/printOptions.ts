import type { Protocol } from 'puppeteer-core';
import type { PaperFormat } from './paper.js';

/**
 * How a page is printed: the parameters of DevTools' Page.printToPDF (see printPage.ts for why
 * the renderer calls it directly). Margins live here rather than in CSS @page so that the
 * development preview can draw the same page (it reads PAGE_MARGINS); the page footer sits at
 * the foot of the page area and in the 10 mm bottom margin (styles/print.css).
 *
 * No displayHeaderFooter: Chromium's header and footer templates are laid out as a separate
 * document for every page, which made every render 19–53% slower (npm run bench:print-path). The footer is part of the
 * page instead (templates/partials/page-footer.hbs, styles/print.css).
 */
export const PAGE_MARGINS = { top: '14mm', right: '16mm', bottom: '10mm', left: '16mm' } as const;

export type PrintParams = Omit<Protocol.Page.PrintToPDFRequest, 'transferMode'>;

const MM_PER_INCH = 25.4;
export const PAPER_MM: Record<PaperFormat, { width: number; height: number }> = {
  A4: { width: 210, height: 297 },
  Letter: { width: 215.9, height: 279.4 },
};

const inches = (mm: number) => mm / MM_PER_INCH;
const marginInches = (margin: string) => inches(Number.parseFloat(margin));

export function printParams(paper: PaperFormat, tagged: boolean): PrintParams {
  return {
    paperWidth: inches(PAPER_MM[paper].width),
    paperHeight: inches(PAPER_MM[paper].height),
    marginTop: marginInches(PAGE_MARGINS.top),
    marginRight: marginInches(PAGE_MARGINS.right),
    marginBottom: marginInches(PAGE_MARGINS.bottom),
    marginLeft: marginInches(PAGE_MARGINS.left),
    printBackground: true,
    displayHeaderFooter: false,
    preferCSSPageSize: false,
    generateTaggedPDF: tagged,
    generateDocumentOutline: false,
  };
}
