import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { AppError } from '../errors.js';
import { findChromium } from './chromiumPath.js';
import { checkFontLoads } from './fontCheck.js';
import { withDeadline } from './deadline.js';
import { paperFor, paperOf, type PaperFormat, type PaperSetting } from './paper.js';
import type { InboundRender } from './inboundView.js';
import type { InvoiceView } from './invoiceView.js';
import { isCurrencyCode } from '../invoice/currencies.js';
import { RENDER_DEFAULTS } from './renderDefaults.js';
import { pdfPageCount, setPdfInfo } from './pdfInfo.js';
import type { PooledPage } from './pooledPage.js';
import { printParams } from './printOptions.js';
import { printHtml } from './printPage.js';
import { renderFailed, renderTimeout } from './renderErrors.js';
import { RenderSupervisor, type IdleOrder } from './renderSupervisor.js';
import { openScratchDir } from './scratchDir.js';
import { withPreviewStamp, withSpecimenStamp } from './specimenStamp.js';
import type { UnseenFact } from './printedFacts.js';
import { designChecker } from './designCheck.js';
import { designUnseenFacts } from './designFacts.js';
import { referenceViews } from './referenceViews.js';
import { designMaxPages, designTooLong, PREVIEW_MAX_PAGES } from './designLimits.js';
import type { CDPSession } from 'puppeteer-core';
import { SPECIMEN_TEXT } from '../invoice/specimen.js';
import { loadInvoiceTemplates, type InvoiceTemplates, type TemplateReload } from './templates.js';

/** Every option left out takes its value from RENDER_DEFAULTS (renderDefaults.ts), as the configuration does. */
export interface RendererOptions {
  /** Chromium binary; found on the usual Debian paths and PATH when not given. */
  executablePath?: string;
  /** Chromium's own sandbox (default true; always off as root, where it cannot run). */
  sandbox?: boolean;
  /** Warm pages, i.e. renders at once (two pages per two cores gives most of the throughput). */
  poolSize?: number;
  /** Renders that may wait for a page beyond those rendering; more are turned away (renderer_busy). */
  queueLimit?: number;
  /** Deadline of one render once it has a page; also the longest wait for a page. */
  renderTimeoutMs?: number;
  /**
   * A browser is replaced after this many renders, bounding leaks and
   * fragmentation. Not lower: memory measured flat over 2500 renders (docs/benchmarks.md), and each
   * replacement costs ≈ 0.25 s of reduced throughput while the successor starts.
   */
  maxRendersPerBrowser?: number;
  /** auto: by currency (paper.ts). */
  paperSize?: PaperSetting;
  /** Recompile templates and styles when their files change (development). */
  watchTemplates?: boolean;
  /** Tagged (accessible) PDF, see TAGGED_DEFAULT. */
  tagged?: boolean;
  log?: (event: object) => void;
  /** Where browser profiles and Chromium's temporary files go (default: <os tmpdir>/invoice-pdf-chromium). */
  scratchRoot?: string;
  /** Folder holding templates/ and styles/ (default: the project root). */
  templatesRoot?: string;
  /**
   * The content contract's reference invoices, for the print-time check of stored designs
   * (designCheck.ts); without them every customer design's print is checked in full.
   */
  designReferences?: () => readonly PreparedInvoice[];
  /** Which idle page a render takes (renderSupervisor.ts); only bench/pagePool.ts changes it. */
  idleOrder?: IdleOrder;
}

interface RenderResult {
  pdf: Buffer;
  pages: number;
  /** Wall time of renderPdf, queueing included. */
  ms: number;
}

interface RendererStats {
  browserConnected: boolean;
  browserPid: number | undefined;
  pagesInUse: number;
  pagesIdle: number;
  /** Renders waiting for a page. */
  queued: number;
  /** Browser launches after the first (crashes, kills, retirements). */
  restarts: number;
  /** Successful renders. */
  renders: number;
  failures: number;
}

/** `specimen`: paid with test money, so every page is stamped (specimenStamp.ts). */
interface RenderCall {
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
  specimen?: boolean | undefined;
  /** A designer's preview (POST /v1/templates/preview): PREVIEW on every page, at most PREVIEW_MAX_PAGES. */
  preview?: boolean | undefined;
}

export interface Renderer {
  /**
   * Renders the PDF. Admission is decided before it returns: a full renderer throws renderer_busy
   * (renderer_unavailable once closed) synchronously, so a caller knows whether its render was taken
   * before it does anything else. The promise rejects with render_timeout or render_failed, or
   * renderer_busy after waiting a whole render deadline for a page. `signal` withdraws a render that
   * still waits for a page. `paper` overrides the configured paper size for this one render (the
   * development preview's paper switch).
   */
  renderPdf(
    prepared: PreparedInvoice,
    options?: RenderCall & { paper?: PaperSetting | undefined },
  ): Promise<RenderResult>;
  /** The same for an inbound e-invoice (POST /v1/e-invoice/render.pdf), with the same admission. */
  renderInboundPdf(render: InboundRender, options?: RenderCall): Promise<RenderResult>;
  /**
   * Whether Chromium loads this font (fontCheck.ts): resolves when it does, rejects with a 400
   * font_invalid when its sanitiser refuses it. Takes a render page like a render (renderer_busy
   * when there is none), within the render deadline.
   */
  checkFont(bytes: Uint8Array): Promise<void>;
  /**
   * The facts each invoice (carrying a customer's design) does not show, missing or hidden, read
   * from its laid-out page without printing (designFacts.ts): the content contract's look.
   * Admitted like a render, within one render deadline for all of them.
   */
  designUnseenFacts(invoices: readonly PreparedInvoice[]): Promise<UnseenFact[][]>;
  /** Would a render be admitted now? The question renderPdf's admission asks (readiness asks it too). */
  hasRoom(): boolean;
  /** The filled HTML as the preview shows it (the printed copy adds SCREEN_OFF_CSS, templates.ts). */
  renderHtml(prepared: PreparedInvoice): string;
  /** With watchTemplates: called after each reload of the templates this renderer prints with. */
  onTemplatesReloaded(listener: (outcome: TemplateReload) => void): () => void;
  stats(): RendererStats;
  /** Can take work: a browser is up, or is being replaced after a retirement or crash and the last launch worked. */
  ready(): boolean;
  browserPid(): number | undefined;
  /** Waits for renders in progress, then closes every page and browser and removes their files. */
  close(): Promise<void>;
}

/** Above renderTimeoutMs so that our own deadline, not a protocol timeout, ends a stuck render. */
const PROTOCOL_TIMEOUT_MS = 30_000;
const PDF_CREATOR = 'invoice-pdf-x402 (Chromium)';

/**
 * Starts the renderer and resolves once Chromium is up, so a service that can't launch it fails
 * at start-up rather than at its first paid request. Pages warm up in the background.
 */
export async function createRenderer(options: RendererOptions = {}): Promise<Renderer> {
  const settings = { ...RENDER_DEFAULTS, ...definedOnly(options) };
  const log = options.log ?? (() => undefined);
  const executablePath = findChromium(options.executablePath);
  const templates = loadInvoiceTemplates({ watch: settings.watchTemplates, root: options.templatesRoot, log });
  // The reference invoices' views, kept and built ahead: every new design is filled with them.
  const references = referenceViews(templates, options.designReferences ?? (() => []));
  if (options.designReferences) references.buildAhead();
  const designs = designChecker(templates, settings.paperSize, options.designReferences, log, references.view);
  const scratch = openScratchDir(options.scratchRoot);
  const supervisor = new RenderSupervisor({
    pages: settings.poolSize,
    queueLimit: settings.queueLimit,
    waitTimeoutMs: settings.renderTimeoutMs,
    browser: {
      executablePath,
      sandbox: options.sandbox ?? true,
      maxRenders: settings.maxRendersPerBrowser,
      protocolTimeoutMs: Math.max(PROTOCOL_TIMEOUT_MS, settings.renderTimeoutMs + 5_000),
      scratch,
    },
    log,
    ...(options.idleOrder ? { idleOrder: options.idleOrder } : {}),
  });
  const printer: Printer = { templates, tagged: settings.tagged };
  const counts: RenderCounts = { renders: 0, failures: 0 };
  let closed = false;

  /** Runs one print on a page the supervisor hands over; counted and logged once it ends. */
  const run = (call: RenderCall, print: (pooled: PooledPage, job: PrintJob) => Promise<Buffer>) => {
    const started = performance.now();
    const job = { timeoutMs: call.timeoutMs ?? settings.renderTimeoutMs, specimen: call.specimen === true };
    // Not async: supervisor.run() throws synchronously when the render is not admitted (see the interface).
    const work = supervisor.run((pooled) => print(pooled, job), call.signal);
    return finished(counts, log, started, call.signal, work);
  };

  const renderer: Renderer = {
    renderPdf(prepared, call = {}) {
      const paper = call.paper ?? settings.paperSize;
      const info = { author: prepared.invoice.seller.name, date: prepared.invoice.issue_date };
      const design = prepared.design;
      // The view is filled once the render has its page, as a render's work.
      if (!design)
        return run(call, (pooled, job) =>
          printView(printer, pooled, templates.view(prepared), paperOf(prepared, paper), info, job),
        );
      // A customer's design: checked for this invoice's facts before printing (designCheck.ts), and page-capped.
      const maxPages = call.preview ? PREVIEW_MAX_PAGES : designMaxPages(prepared.invoice.line_items.length);
      return run(call, async (pooled, job) => {
        const textOnly = !call.preview && !job.specimen;
        const format = paperOf(prepared, paper);
        const { view, page, beforePrint } = designs.page(prepared, design, format, textOnly);
        const pdf = await printView(printer, pooled, view, format, info, job, page, {
          beforePrint,
          preview: call.preview === true,
        });
        const pages = pdfPageCount(pdf);
        if (pages > maxPages) throw designTooLong(pages, maxPages);
        return pdf;
      });
    },

    renderInboundPdf(render, call = {}) {
      // The view is built before admission, so a document the template cannot fill fails here.
      const view = templates.inboundView(render);
      // A file's further documents follow the first, each from a new page (inboundPages.ts).
      const further = (render.further ?? []).map((document) =>
        templates.inboundView({ ...document, locale: render.locale }),
      );
      const page = further.length > 0 ? templates.printPages([view, ...further]) : undefined;
      const paper = inboundPaper(render.invoice.currency, settings.paperSize);
      const info = {
        author: render.invoice.seller.name,
        date: /^\d{4}-\d{2}-\d{2}$/.test(render.invoice.issueDate)
          ? render.invoice.issueDate
          : new Date().toISOString().slice(0, 10),
      };
      return run(call, (pooled, job) => printView(printer, pooled, view, paper, info, job, page));
    },

    designUnseenFacts(invoices) {
      const timeoutMs = settings.renderTimeoutMs;
      return supervisor.run((pooled) =>
        withDeadline(
          Promise.race([
            designUnseenFacts(templates, pooled, invoices, settings.paperSize, references.view),
            pooled.crashed,
          ]),
          timeoutMs,
          () => renderTimeout(timeoutMs),
        ),
      );
    },

    checkFont(bytes) {
      const timeoutMs = settings.renderTimeoutMs;
      return supervisor.run((pooled) =>
        withDeadline(Promise.race([checkFontLoads(pooled, bytes), pooled.crashed]), timeoutMs, () =>
          renderTimeout(timeoutMs),
        ),
      );
    },

    hasRoom: () => supervisor.hasRoom(),

    renderHtml: (prepared) => templates.page(templates.view(prepared)),

    onTemplatesReloaded: (listener) => templates.onReload(listener),

    stats: () => ({
      browserConnected: supervisor.browserConnected,
      browserPid: supervisor.browserPid,
      ...supervisor.stats(),
      ...counts,
    }),

    ready: () => !closed && supervisor.healthy(),

    browserPid: () => supervisor.browserPid,

    async close() {
      if (closed) return;
      closed = true;
      templates.close();
      await supervisor.close();
      scratch.close();
    },
  };

  try {
    await supervisor.start();
  } catch (error) {
    await renderer.close();
    throw new Error(`Chromium could not be started from ${executablePath}: ${String(error)}`, { cause: error });
  }
  return renderer;
}

/** What prints a view: the renderer's templates and whether its PDFs are tagged. */
interface Printer {
  templates: InvoiceTemplates;
  tagged: boolean;
}

/** One render's deadline (once it has a page) and whether it is a specimen. */
type PrintJob = Pick<Required<RenderCall>, 'timeoutMs' | 'specimen'>;

interface RenderCounts {
  renders: number;
  failures: number;
}

/** Fills the HTML and prints it on the page the supervisor handed over, within the deadline. */
async function printView(
  printer: Printer,
  pooled: PooledPage,
  view: InvoiceView,
  paper: PaperFormat,
  info: { author: string; date: string },
  { timeoutMs, specimen }: PrintJob,
  page = printer.templates.printPage(view),
  design: { beforePrint?: (session: CDPSession) => Promise<void>; preview?: boolean } = {},
): Promise<Buffer> {
  const stamped = specimen ? withSpecimenStamp(page) : page;
  const html = design.preview ? withPreviewStamp(stamped) : stamped;
  const params = printParams(paper, printer.tagged);
  try {
    const work = printHtml(pooled.printable, html, params, design.beforePrint);
    const printed = await withDeadline(Promise.race([work, pooled.crashed]), timeoutMs, () => renderTimeout(timeoutMs));
    const title = specimen ? `${SPECIMEN_TEXT}: ${view.title}` : view.title;
    return setPdfInfo(printed, { title, author: info.author, date: info.date, creator: PDF_CREATOR });
  } catch (error) {
    throw error instanceof AppError ? error : renderFailed(error);
  }
}

/** Counts and logs a finished render, as renderPdf and renderInboundPdf both do. */
function finished(
  counts: RenderCounts,
  log: (event: object) => void,
  started: number,
  signal: AbortSignal | undefined,
  work: Promise<Buffer>,
): Promise<RenderResult> {
  return work.then(
    (pdf) => {
      const pages = pdfPageCount(pdf);
      const ms = performance.now() - started;
      counts.renders++;
      log({ event: 'render', ms: Math.round(ms), pages, bytes: pdf.length });
      return { pdf, pages, ms };
    },
    (error: unknown) => {
      if (signal?.aborted && error === signal.reason) throw error; // withdrawn, not failed
      counts.failures++;
      const failure = error instanceof AppError ? error : renderFailed(error);
      log({ event: 'render_failed', code: failure.code, error: String(failure.cause ?? failure.message) });
      throw failure;
    },
  );
}

/** An inbound invoice's paper: by its currency where it is one of ours (paper.ts), else A4. */
function inboundPaper(currency: string, setting: PaperSetting): PaperFormat {
  return isCurrencyCode(currency) ? paperFor(currency, setting) : setting === 'auto' ? 'A4' : setting;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
