/**
 * The print-time check of a customer's design (src/render/designCheck.ts) timed on its own, for
 * bench/templates.ts, on a page of the renderer's kind (locked down, scripts off) with the house
 * style filled with an invoice of `lines` lines:
 * - timePrintCheck: the check a covered invoice gets (its decision in Node: the fill's trace, markup
 *   and lengths against the design's coverage, designCoverage.ts; then the facts read from the
 *   written page's text, textOnPage.ts), and the full check an uncovered one gets: the page switched
 *   to print media, which lays it out as printed (designLayout.ts), then read (factsOnPage.ts), and
 *   the reading alone on a page already laid out; with the Chromium CPU each costs;
 * - timeDesignPrints: where a stored design's print spends more than built-in classic's, printed
 *   as the renderer prints (printHtml) in four ways, alternated: classic; the design without a
 *   check; the design with the text's check (a covered invoice: what the service does for the
 *   house style); the design with the full check (an uncovered invoice).
 */
import { prepareInvoice, type PreparedInvoice } from '../src/invoice/prepareInvoice.js';
import { storedForm, templateId } from '../src/invoice/templatePackage.js';
import { factsOf } from '../src/render/contractFacts.js';
import { pageAreaPx, whileLaidOutAsPrinted } from '../src/render/designLayout.js';
import { lockDownPage } from '../src/render/lockDownPage.js';
import { paperOf } from '../src/render/paper.js';
import { layOutHtml, openPrintablePage, printHtml } from '../src/render/printPage.js';
import { checkPrintedFacts, checkPrintedText, unseenFacts } from '../src/render/printedFacts.js';
import { askedFacts, textFactsExpression } from '../src/render/textOnPage.js';
import { coverageOf, uncovered } from '../src/render/designCoverage.js';
import { traceFill } from '../src/render/fillTrace.js';
import { preparedReferences } from '../src/templates/contract/referenceInvoices.js';
import { printParams } from '../src/render/printOptions.js';
import { loadInvoiceTemplates } from '../src/render/templates.js';
import { HOUSE_STYLE } from '../test/fixtures/housePackages.js';
import { invoiceWithItems } from '../test/fixtures/invoices.js';
import { launchBenchBrowser } from './benchBrowser.js';
import { percentile } from './measure.js';
import { browserCpuMs } from './processCpu.js';
import { scaled } from './scale.js';

/** Warm-up rounds before the timed ones: 2 at scale 1, 1 at the bench tier's tiny scale. */
const WARMUP = scaled(2);

export interface PrintCheckTimes {
  /** Node's work a covered print adds to an unchecked one, per print (ms): the traced fill over the plain one, the facts, the decision, the evaluation's expression. */
  node: number[];
  /** The text's reading inside the page (ms), without the DevTools round trip. */
  inPage: number[];
  /** The same, in the process's CPU time (ms). */
  nodeCpu: number[];
  /** nodeCpu + inPage of the same print (ms): the covered print's check. */
  check: number[];
  /** The text's check as Node waits for it (ms): the expression, the DevTools round trip, the reading. */
  roundTrip: number[];
  /** The full check an uncovered print gets (ms), with the layout it waits for / on a page laid out. */
  withLayout: number[];
  laidOut: number[];
  facts: number;
  /** Chromium's CPU per call (ms, all its processes; 10 ms ticks summed over the samples, then divided). */
  cpu: { text: number; withLayout: number; laidOut: number };
}

export async function timePrintCheck(lines: number, samples: number): Promise<PrintCheckTimes> {
  return withPrintablePage(async (printable, templates) => {
    const pkg = storedForm(HOUSE_STYLE);
    const design = { id: templateId(pkg), package: pkg, stored: true };
    const prepared = { ...prepareInvoice({ ...invoiceWithItems(lines), currency: 'EUR' }), design };
    const paper = paperOf(prepared, 'auto');
    // As designCheck.ts fills a stored design for a print: traced, with the view's facts.
    const filled = (invoice: PreparedInvoice) => {
      const view = templates.view(invoice);
      const { result: html, trace } = traceFill(() => templates.designPage(view, design, true));
      return { html, view, trace, asked: askedFacts(factsOf(view)), paper: paperOf(invoice, 'auto') };
    };
    const coverage = coverageOf(
      preparedReferences().map(({ prepared: reference }) => filled({ ...reference, design })),
    );
    const view = templates.view(prepared);
    const width = pageAreaPx(paper).width;
    const { session } = printable;
    const found: Omit<PrintCheckTimes, 'facts' | 'cpu'> = {
      node: [],
      nodeCpu: [],
      inPage: [],
      check: [],
      roundTrip: [],
      withLayout: [],
      laidOut: [],
    };
    const cpu = { text: 0, withLayout: 0, laidOut: 0 };
    for (let round = 0; round < samples + WARMUP; round++) {
      // Node's part: a print's fill untraced (what classic's print does), then as a covered print
      // does it; the difference, plus the facts, the decision and the expression, is the check's.
      // Alternated in order, so that a collection one leaves behind falls on each alike; wall and
      // CPU time (the process's, µs), the CPU time unblurred by other processes taking the cores.
      const cpuMs = () => {
        const { user, system } = process.cpuUsage();
        return (user + system) / 1000;
      };
      // A fill's output is a string of many pieces; every print flattens it once, when it sends the
      // page (a 200-line page ≈ 0.3 ms), and the check reads it after (designCheck.ts): both
      // flattened here, as sending would.
      const sent = (page: string) => page.charCodeAt(0);
      const timePlain = () => {
        const at = [performance.now(), cpuMs()];
        sent(templates.designPage(view, design, true));
        return [performance.now() - at[0]!, cpuMs() - at[1]!] as const;
      };
      const before = round % 2 === 0 ? timePlain() : [0, 0];
      const at = [performance.now(), cpuMs()];
      const { result: html, trace } = traceFill(() => templates.designPage(view, design, true));
      sent(html);
      const asked = askedFacts(factsOf(view));
      const why = uncovered(coverage, { html, view, trace, paper, asked });
      if (why !== undefined) throw new Error(`the bench's invoice is not covered: ${why}`);
      textFactsExpression(asked);
      const checked = [performance.now() - at[0]!, cpuMs() - at[1]!];
      const plain = round % 2 === 0 ? before : timePlain();
      const node = Math.max(0, checked[0]! - plain[0]!);
      const nodeCpu = Math.max(0, checked[1]! - plain[1]!);
      // The reading timed inside the page, the first on a document just written (what Chromium
      // spends, without the DevTools round trip; nothing of the document read before).
      await layOutHtml(printable, html);
      const { result } = await session.send('Runtime.evaluate', {
        expression: `(() => { const started = performance.now(); const missing = ${textFactsExpression(asked)}; if (missing.length > 0) throw new Error('missing facts'); return performance.now() - started; })()`,
        returnByValue: true,
      });
      // The check as Node waits for it sent alone, after the document's answer (a print sends it
      // behind the document, printPage.ts, and waits less: the prints' table).
      await layOutHtml(printable, html);
      let started = performance.now();
      let ticks = browserCpuMs();
      await checkPrintedText(session, asked);
      const roundTrip = performance.now() - started;
      const textCpu = browserCpuMs() - ticks;
      const inPage = result.value as number;
      await whileLaidOutAsPrinted(session, paper, async () => {
        started = performance.now();
        ticks = browserCpuMs();
        const unseen = await unseenFacts(session, view, width);
        if (unseen.length > 0) throw new Error(`the house style hides ${unseen[0]!.fact.field}: ${unseen[0]!.reason}`);
        const first = performance.now() - started;
        const firstCpu = browserCpuMs() - ticks;
        started = performance.now();
        ticks = browserCpuMs();
        await unseenFacts(session, view, width);
        if (round < WARMUP) return; // warm-up
        found.node.push(node);
        found.nodeCpu.push(nodeCpu);
        found.inPage.push(inPage);
        found.check.push(nodeCpu + inPage);
        found.roundTrip.push(roundTrip);
        found.withLayout.push(first);
        found.laidOut.push(performance.now() - started);
        cpu.text += textCpu / samples;
        cpu.withLayout += firstCpu / samples;
        cpu.laidOut += (browserCpuMs() - ticks) / samples;
      });
    }
    return { ...found, facts: factsOf(view).length, cpu };
  });
}

const PRINTS = [
  'classic',
  'design, no check',
  'design, text check (covered)',
  'design, full check (uncovered)',
] as const;
type PrintWay = (typeof PRINTS)[number];

/** Each way's wall times (ms) and Chromium CPU per print (ms), `samples` rounds after WARMUP of warm-up. */
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
      'design, text check (covered)': () => {
        const { view, html } = designPage();
        return printHtml(printable, html, params, () => checkPrintedText(session, askedFacts(factsOf(view))));
      },
      'design, full check (uncovered)': () => asPrinted((view) => checkPrintedFacts(session, view, width)),
    };
    const found = Object.fromEntries(PRINTS.map((way) => [way, { wall: [] as number[], cpu: 0 }])) as Record<
      PrintWay,
      { wall: number[]; cpu: number }
    >;
    for (let round = 0; round < samples + WARMUP; round++) {
      for (const way of round % 2 === 0 ? PRINTS : [...PRINTS].reverse()) {
        const ticks = browserCpuMs();
        const started = performance.now();
        await ways[way]();
        if (round < WARMUP) continue;
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
/** "p50 / p95" in ms, two decimals. */
export const p50p95 = (samples: number[]) => `${p50(samples)} / ${percentile(samples, 95).toFixed(2)}`;
