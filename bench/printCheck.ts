/**
 * The print-time check of a customer's design (src/render/printedFacts.ts) timed on its own, for
 * bench/templates.ts: a page of the renderer's kind (locked down, scripts off) with the house
 * style filled with an invoice of `lines` lines, laid out as printed (designLayout.ts). Two figures:
 * the check's first reading after the document is written, which forces the page's screen layout
 * (a built-in render never lays out for the screen: templates.ts SCREEN_OFF_CSS), and the reading
 * of a page already laid out (the check's own work: the walk, the styles, the boxes, the hit tests).
 */
import { prepareInvoice } from '../src/invoice/prepareInvoice.js';
import { storedForm, templateId } from '../src/invoice/templatePackage.js';
import { factsOf } from '../src/render/contractFacts.js';
import { layOutAsPrinted, pageAreaPx } from '../src/render/designLayout.js';
import { lockDownPage } from '../src/render/lockDownPage.js';
import { paperOf } from '../src/render/paper.js';
import { layOutHtml, openPrintablePage } from '../src/render/printPage.js';
import { unseenFacts } from '../src/render/printedFacts.js';
import { loadInvoiceTemplates } from '../src/render/templates.js';
import { HOUSE_STYLE } from '../test/fixtures/housePackages.js';
import { invoiceWithItems } from '../test/fixtures/invoices.js';
import { launchBenchBrowser } from './benchBrowser.js';
import { percentile } from './measure.js';

export async function timePrintCheck(
  lines: number,
  samples: number,
): Promise<{ withLayout: number[]; laidOut: number[]; facts: number }> {
  const { browser, close } = await launchBenchBrowser();
  const templates = loadInvoiceTemplates();
  try {
    const page = await browser.newPage();
    await lockDownPage(page);
    const printable = await openPrintablePage(page);
    const pkg = storedForm(HOUSE_STYLE);
    const prepared = { ...prepareInvoice(invoiceWithItems(lines)), design: { id: templateId(pkg), package: pkg } };
    const view = templates.view(prepared);
    const html = templates.designPage(view, prepared.design, true);
    const paper = paperOf(prepared, 'auto');
    await layOutAsPrinted(printable.session, paper);
    const width = pageAreaPx(paper).width;
    const withLayout: number[] = [];
    const laidOut: number[] = [];
    for (let round = 0; round < samples + 2; round++) {
      await layOutHtml(printable, html);
      let started = performance.now();
      const unseen = await unseenFacts(printable.session, view, width);
      if (unseen.length > 0) throw new Error(`the house style hides ${unseen[0]!.fact.field}: ${unseen[0]!.reason}`);
      const first = performance.now() - started;
      started = performance.now();
      await unseenFacts(printable.session, view, width);
      if (round < 2) continue; // warm-up
      withLayout.push(first);
      laidOut.push(performance.now() - started);
    }
    return { withLayout, laidOut, facts: factsOf(view).length };
  } finally {
    await close();
  }
}

export const p50 = (samples: number[]) => percentile(samples, 50).toFixed(2);
