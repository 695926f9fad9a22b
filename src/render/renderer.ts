import type { CurrencyCode } from '../invoice/currencies.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { AppError } from '../errors.js';
import { BrowserSupervisor } from './browser.js';
import { findChromium } from './chromiumPath.js';
import { withDeadline } from './deadline.js';
import { createPagePool, type PooledPage } from './pagePool.js';
import { paperFor, type PaperSetting } from './paper.js';
import { pdfPageCount, setPdfInfo } from './pdfInfo.js';
import { printParams } from './printOptions.js';
import { printHtml } from './printPage.js';
import { rendererBusy, rendererClosed, renderFailed, renderTimeout } from './renderErrors.js';
import { openScratchDir } from './scratchDir.js';
import { loadInvoiceTemplates } from './templates.js';
import type { InvoiceView } from './viewModel.js';

export interface RendererOptions {
  /** Chromium binary; found on the usual Debian paths and PATH when not given. */
  executablePath?: string;
  /** Chromium's own sandbox (default true; always off as root, where it cannot run). */
  sandbox?: boolean;
  /** Warm pages, i.e. renders at once (default 2: two pages per two cores gives most of the throughput). */
  poolSize?: number;
  /** Renders that may wait for a page beyond those rendering (default 16); more are 503 renderer_busy. */
  queueLimit?: number;
  /** Deadline of one render once it has a page (default 20000); also the longest wait for a page. */
  renderTimeoutMs?: number;
  /**
   * A browser is replaced after this many renders (default 2000), bounding leaks and
   * fragmentation. Not lower: memory measured flat over 2500 renders (README, Benchmark), and each
   * replacement costs ≈ 0.25 s of reduced throughput while the successor starts.
   */
  maxRendersPerBrowser?: number;
  /** auto: Letter for USD, CAD, MXN and A4 otherwise (default auto). */
  paperSize?: PaperSetting;
  /** Recompile templates and styles when their files change (development). */
  watchTemplates?: boolean;
  /** Tagged (accessible) PDF; default false, see TAGGED_DEFAULT. */
  tagged?: boolean;
  log?: (event: object) => void;
  /** Where browser profiles and Chromium's temporary files go (default: <os tmpdir>/invoice-pdf-chromium). */
  scratchRoot?: string;
  /** Folder holding templates/ and styles/ (default: the project root). */
  templatesRoot?: string;
}

export interface RenderResult {
  pdf: Buffer;
  pages: number;
  /** Wall time of renderPdf, queueing included. */
  ms: number;
}

export interface RendererStats {
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

/** One admission slot (a page or a queue place) held ahead of a render. Releasing twice is harmless. */
export interface RenderReservation {
  release(): void;
}

export interface Renderer {
  /**
   * Renders the PDF. Rejects with AppError 503 renderer_busy, 502 render_timeout or 502
   * render_failed. With a reservation from tryReserve(), the render uses that slot (and releases
   * it when done) instead of being admitted again. `paper` overrides the configured paper size
   * for this one render (the development preview's paper switch).
   */
  renderPdf(prepared: PreparedInvoice, options?: { timeoutMs?: number; reservation?: RenderReservation | undefined; paper?: PaperSetting | undefined }): Promise<RenderResult>;
  /**
   * Holds a slot for a render that will start soon (a paid request reserves one before it asks the
   * facilitator to verify), or undefined when pages and queue are all taken.
   */
  tryReserve(): RenderReservation | undefined;
  /** The filled HTML as the preview shows it (the printed copy adds SCREEN_OFF_CSS, templates.ts). */
  renderHtml(prepared: PreparedInvoice): string;
  stats(): RendererStats;
  /** Can take work: a browser is up, or is being replaced after a retirement or crash and the last launch worked. */
  ready(): boolean;
  browserPid(): number | undefined;
  /** Waits for renders in progress, then closes every page and browser and removes their files. */
  close(): Promise<void>;
}

/**
 * Untagged by default. Tagging (Chromium's structure tree for assistive technology) doubles the
 * render time of a long invoice (≈ 484 vs 250 ms for 200 lines), makes the file ≈ 6× larger
 * (562 vs 94 KB) and cuts throughput by a quarter (RENDERING.md). Invoices are read on screen or
 * paper and machine-read by their text layer, which untagged PDFs have in full (text extraction
 * and copy work the same); Chromium's tags don't make a PDF/UA document anyway. An operator who
 * needs tags turns them on with `tagged: true`.
 */
export const TAGGED_DEFAULT = false;

const DEFAULTS = {
  poolSize: 2,
  queueLimit: 16,
  renderTimeoutMs: 20_000,
  maxRendersPerBrowser: 2000,
  paperSize: 'auto' as PaperSetting,
  watchTemplates: false,
  tagged: TAGGED_DEFAULT,
};

/** Above renderTimeoutMs so that our own deadline, not a protocol timeout, ends a stuck render. */
const PROTOCOL_TIMEOUT_MS = 30_000;
const RETRY_AFTER_SECONDS = 1;
const PDF_CREATOR = 'invoice-pdf-x402 (Chromium)';

/**
 * Starts the renderer and resolves once Chromium is up, so a service that can't launch it fails
 * at start-up rather than at its first paid request. Pages warm up in the background.
 */
export async function createRenderer(options: RendererOptions = {}): Promise<Renderer> {
  const settings = { ...DEFAULTS, ...definedOnly(options) };
  const log = options.log ?? (() => undefined);
  const executablePath = findChromium(options.executablePath);
  const templates = loadInvoiceTemplates({ watch: settings.watchTemplates, root: options.templatesRoot, log });
  const scratch = openScratchDir(options.scratchRoot);
  const supervisor = new BrowserSupervisor({
    executablePath,
    sandbox: options.sandbox ?? true,
    maxRenders: settings.maxRendersPerBrowser,
    protocolTimeoutMs: Math.max(PROTOCOL_TIMEOUT_MS, settings.renderTimeoutMs + 5_000),
    scratch,
    log,
    onRetired: () => sweepIdlePages(),
  });
  const pool = createPagePool(supervisor, {
    size: settings.poolSize,
    // generic-pool counts a render as waiting while its page is being validated, so its own limit
    // would turn renders away early; admission below enforces queueLimit exactly, this is a backstop.
    maxWaiting: settings.queueLimit + settings.poolSize,
    acquireTimeoutMs: settings.renderTimeoutMs,
    log,
  });

  // Renders in progress or queued, plus reservations not yet rendering: at most poolSize + queueLimit.
  let admitted = 0;
  const reservations = new WeakSet<RenderReservation>();
  const takeSlot = (): RenderReservation => {
    admitted++;
    let held = true;
    const slot = {
      release() {
        if (!held) return;
        held = false;
        reservations.delete(slot);
        admitted--;
      },
    };
    reservations.add(slot);
    return slot;
  };
  const full = () => admitted >= settings.poolSize + settings.queueLimit;
  let renders = 0;
  let failures = 0;
  let closed = false;

  /** Chromium's PDF of the invoice: HTML filled here, printed on a pooled page. */
  async function print(view: InvoiceView, currency: CurrencyCode, paper: PaperSetting, timeoutMs: number): Promise<Buffer> {
    const html = templates.printPage(view);
    const params = printParams(paperFor(currency, paper), settings.tagged);

    const pooled = await acquirePage();
    let reusable = false;
    try {
      const work = printHtml(pooled.printable, html, params);
      const bytes = await withDeadline(Promise.race([work, pooled.crashed]), timeoutMs, () => renderTimeout(timeoutMs));
      reusable = true;
      supervisor.renderDone(pooled.browser);
      return bytes;
    } catch (error) {
      throw error instanceof AppError ? error : renderFailed(error);
    } finally {
      // A page that failed or timed out may be mid-navigation or hung: destroy it, never reuse it.
      const done = reusable && !pooled.browser.retired ? pool.release(pooled) : pool.destroy(pooled);
      done.catch((error) => log({ event: 'page_return_failed', error: String(error) }));
    }
  }

  /**
   * Idle pages of a retired browser would keep it (≈ 400 MB) alive until later renders happen to
   * borrow them. Borrowing runs validate(), which destroys them and lets the pool refill on the
   * new browser; so borrow every idle page once and hand it straight back.
   */
  function sweepIdlePages(): void {
    for (let index = 0; index < pool.available; index++) {
      pool
        .acquire()
        .then((page) => pool.release(page))
        .catch(() => undefined);
    }
  }

  async function acquirePage(): Promise<PooledPage> {
    try {
      return await pool.acquire();
    } catch (error) {
      if (closed) throw rendererClosed();
      // Waited a whole render deadline, or generic-pool's own queue limit: both mean overloaded.
      const name = (error as Error).name;
      if (name === 'TimeoutError' || /waitingClients/.test(String(error))) throw rendererBusy(RETRY_AFTER_SECONDS, error);
      throw renderFailed(error);
    }
  }

  const renderer: Renderer = {
    async renderPdf(prepared, call = {}) {
      const reserved = call.reservation && reservations.has(call.reservation) ? call.reservation : undefined;
      if (closed) {
        reserved?.release();
        throw rendererClosed();
      }
      if (!reserved && full()) throw rendererBusy(RETRY_AFTER_SECONDS);
      const slot = reserved ?? takeSlot();
      const started = performance.now();
      try {
        const view = templates.view(prepared);
        const printed = await print(view, prepared.totals.currency, call.paper ?? settings.paperSize, call.timeoutMs ?? settings.renderTimeoutMs);
        const pdf = setPdfInfo(printed, {
          title: view.title,
          author: prepared.invoice.seller.name,
          date: prepared.invoice.issue_date,
          creator: PDF_CREATOR,
        });
        const pages = pdfPageCount(pdf);
        const ms = performance.now() - started;
        renders++;
        log({ event: 'render', ms: Math.round(ms), pages, bytes: pdf.length });
        return { pdf, pages, ms };
      } catch (error) {
        failures++;
        const failure = error instanceof AppError ? error : renderFailed(error);
        log({ event: 'render_failed', code: failure.code, error: String(failure.cause ?? failure.message) });
        throw failure;
      } finally {
        slot.release();
      }
    },

    tryReserve: () => (closed || full() ? undefined : takeSlot()),

    renderHtml: (prepared) => templates.page(templates.view(prepared)),

    stats: () => ({
      browserConnected: supervisor.current !== undefined,
      browserPid: supervisor.current?.pid,
      pagesInUse: pool.borrowed,
      pagesIdle: pool.available,
      queued: pool.pending,
      restarts: supervisor.restarts,
      renders,
      failures,
    }),

    ready: () => !closed && supervisor.healthy,

    browserPid: () => supervisor.current?.pid,

    async close() {
      if (closed) return;
      closed = true;
      templates.close();
      await pool.drain();
      await pool.clear();
      await supervisor.close();
      scratch.close();
    },
  };

  try {
    await supervisor.acquire();
  } catch (error) {
    await renderer.close();
    throw new Error(`Chromium could not be started from ${executablePath}: ${String(error)}`, { cause: error });
  }
  return renderer;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
