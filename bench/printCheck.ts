/**
 * The print-time check of a customer's design (src/render/printedFacts.ts) timed on its own, for
 * bench/templates.ts, on a page of the renderer's kind (locked down, scripts off) with the house
 * style filled with an invoice of `lines` lines, laid out as printed (designLayout.ts):
 * - timePrintCheck: the check's first reading once the page is switched to print media, which
 *   lays it out as printed (a built-in render never lays out but to print: templates.ts
 *   SCREEN_OFF_CSS), and the reading of a page already laid out (the check's own work: the walk,
 *   the styles, the boxes), with the Chromium CPU each costs;
 * - timeDesignPrints: where a stored design's print spends more than built-in classic's, printed
 *   as the renderer prints (printHtml) in four ways, alternated: classic; the design without the
 *   check; the design laid out as printed before printing but not checked; the design checked (what
 *   the service does).
 */
import { prepareInvoice } from '../src/invoice/prepareInvoice.js';
import { storedForm, templateId } from '../src/invoice/templatePackage.js';
import { factsOf } from '../src/render/contractFacts.js';
import { pageAreaPx, whileLaidOutAsPrinted } from '../src/render/designLayout.js';
import { lockDownPage } from '../src/render/lockDownPage.js';
import { paperOf } from '../src/render/paper.js';
import { layOutHtml, openPrintablePage, printHtml } from '../src/render/printPage.js';
import { checkPrintedFacts, unseenFacts } from '../src/render/printedFacts.js';
import { printParams } from '../src/render/printOptions.js';
import { loadInvoiceTemplates } from '../src/render/templates.js';
import { HOUSE_STYLE } from '../test/fixtures/housePackages.js';
import { invoiceWithItems } from '../test/fixtures/invoices.js';
import { launchBenchBrowser } from './benchBrowser.js';
import { percentile } from './measure.js';
import { browserCpuMs } from './processCpu.js';

export async function timePrintCheck(
  lines: number,
  samples: number,
): Promise<{ withLayout: number[]; laidOut: number[]; facts: number; cpu: { withLayout: number; laidOut: number } }> {
  return withPrintablePage(async (printable, templates) => {
    const pkg = storedForm(HOUSE_STYLE);
    const prepared = { ...prepareInvoice(invoiceWithItems(lines)), design: { id: templateId(pkg), package: pkg } };
    const view = templates.view(prepared);
    const html = templates.designPage(view, prepared.design, true);
    const paper = paperOf(prepared, 'auto');
    const width = pageAreaPx(paper).width;
    const { session } = printable;
    const withLayout: number[] = [];
    const laidOut: number[] = [];
    // Chromium's CPU (all its processes, 10 ms ticks: summed over the samples, then divided).
    const cpu = { withLayout: 0, laidOut: 0 };
    for (let round = 0; round < samples + 2; round++) {
      await layOutHtml(printable, html);
      await whileLaidOutAsPrinted(session, paper, async () => {
        let started = performance.now();
        let ticks = browserCpuMs();
        const unseen = await unseenFacts(session, view, width);
        if (unseen.length > 0) throw new Error(`the house style hides ${unseen[0]!.fact.field}: ${unseen[0]!.reason}`);
        const first = performance.now() - started;
        const firstCpu = browserCpuMs() - ticks;
        started = performance.now();
        ticks = browserCpuMs();
        await unseenFacts(session, view, width);
        if (round < 2) return; // warm-up
        withLayout.push(first);
        laidOut.push(performance.now() - started);
        cpu.withLayout += firstCpu / samples;
        cpu.laidOut += (browserCpuMs() - ticks) / samples;
      });
    }
    return { withLayout, laidOut, facts: factsOf(view).length, cpu };
  });
}

const PRINTS = ['classic', 'design, no check', 'design laid out, no check', 'design checked'] as const;
type PrintWay = (typeof PRINTS)[number];

/** Each way's wall times (ms) and Chromium CPU per print (ms), `samples` rounds after 2 of warm-up. */
export async function timeDesignPrints(
  lines: number,
  samples: number,
): Promise<Record<PrintWay, { wall: number[]; cpu: number }>> {
  return withPrintablePage(async (printable, templates) => {
    const { session } = printable;
    const pkg = storedForm(HOUSE_STYLE);
    const plain = prepareInvoice({ ...invoiceWithItems(lines), currency: 'EUR' });
    const designed = { ...plain, design: { id: templateId(pkg), package: pkg } };
    const paper = paperOf(plain, 'auto');
    const params = printParams(paper, true);
    const width = pageAreaPx(paper).width;
    const designPage = () => {
      const view = templates.view(designed);
      return { view, html: templates.designPage(view, designed.design, true) };
    };
    // As the renderer prints a design (renderer.ts): written, laid out as printed for `look`, printed.
    const asPrinted = (look: (view: ReturnType<typeof designPage>['view']) => Promise<unknown>) => {
      const { view, html } = designPage();
      return printHtml(printable, html, params, async () => {
        await whileLaidOutAsPrinted(session, paper, () => look(view));
      });
    };
    const ways: Record<PrintWay, () => Promise<unknown>> = {
      classic: () => printHtml(printable, templates.printPage(templates.view(plain)), params),
      'design, no check': () => printHtml(printable, designPage().html, params),
      'design laid out, no check': () =>
        asPrinted(() => session.send('Runtime.evaluate', { expression: 'document.body.offsetHeight' })),
      'design checked': () => asPrinted((view) => checkPrintedFacts(session, view, width)),
    };
    const found = Object.fromEntries(PRINTS.map((way) => [way, { wall: [] as number[], cpu: 0 }])) as Record<
      PrintWay,
      { wall: number[]; cpu: number }
    >;
    for (let round = 0; round < samples + 2; round++) {
      for (const way of round % 2 === 0 ? PRINTS : [...PRINTS].reverse()) {
        const ticks = browserCpuMs();
        const started = performance.now();
        await ways[way]();
        if (round < 2) continue;
        found[way].wall.push(performance.now() - started);
        found[way].cpu += (browserCpuMs() - ticks) / samples;
      }
    }
    return found;
  });
}

/** `run` on one page of the renderer's kind (locked down, scripts off) in the bench's Chromium, closed after. */
async function withPrintablePage<T>(
  run: (
    printable: Awaited<ReturnType<typeof openPrintablePage>>,
    templates: ReturnType<typeof loadInvoiceTemplates>,
  ) => Promise<T>,
): Promise<T> {
  const { browser, close } = await launchBenchBrowser();
  try {
    const page = await browser.newPage();
    await lockDownPage(page);
    return await run(await openPrintablePage(page), loadInvoiceTemplates());
  } finally {
    await close();
  }
}

export const p50 = (samples: number[]) => percentile(samples, 50).toFixed(2);
