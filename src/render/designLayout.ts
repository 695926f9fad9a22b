import type { CDPSession } from 'puppeteer-core';
import type { PaperFormat } from './paper.js';
import { PAGE_MARGINS, PAPER_MM } from './printOptions.js';

const PX_PER_MM = 96 / 25.4;

/** The width and height of the page area (paper less margins) in CSS pixels. */
export function pageAreaPx(paper: PaperFormat): { width: number; height: number } {
  const mm = (margin: string) => Number.parseFloat(margin);
  const { width, height } = PAPER_MM[paper];
  return {
    width: Math.floor((width - mm(PAGE_MARGINS.left) - mm(PAGE_MARGINS.right)) * PX_PER_MM),
    height: Math.floor((height - mm(PAGE_MARGINS.top) - mm(PAGE_MARGINS.bottom)) * PX_PER_MM),
  };
}

/**
 * While a customer's design is checked (printedFacts.ts), its page is laid out as it prints: print
 * media (so @media print rules apply, and the renderer's `@media screen { body { display: none } }`
 * does not) at the page area's width. Printing itself lays out anew for the paper, so neither
 * setting changes the PDF. Call it once the document is written, and print after it returns: the
 * media is screen again by then. Switched before the document was written, the page's previous
 * document (a built-in render's, never laid out) was laid out and painted in print media first;
 * left on print while printing, Chromium lays the page out in print media again after printing
 * (npm run bench:templates: both cost as much as the check's own layout). A built-in render gains
 * nothing from a screen layout (templates.ts, SCREEN_OFF_CSS).
 */
export async function whileLaidOutAsPrinted<T>(
  session: CDPSession,
  paper: PaperFormat,
  look: () => Promise<T>,
): Promise<T> {
  const { width, height } = pageAreaPx(paper);
  await session.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
  await session.send('Emulation.setEmulatedMedia', { media: 'print' });
  try {
    return await look();
  } finally {
    await session.send('Emulation.setEmulatedMedia', { media: '' }).catch(() => undefined);
  }
}
