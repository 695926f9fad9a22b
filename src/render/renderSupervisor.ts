import { BrowserSupervisor, type BrowserSupervisorOptions } from './browser.js';
import { closePage, openPage, usable, type PooledPage } from './pooledPage.js';
import { rendererBusy, rendererClosed } from './renderErrors.js';

export interface RenderSupervisorOptions {
  /** Warm pages, i.e. renders at once. */
  pages: number;
  /** Renders that may wait for a page beyond those rendering; more are turned away (renderer_busy). */
  queueLimit: number;
  /** The longest a render waits for a page before it is turned away as busy. */
  waitTimeoutMs: number;
  browser: Omit<BrowserSupervisorOptions, 'onRetired' | 'log'>;
  log: (event: object) => void;
  /** Which idle page a render takes: the one used last (the default, see below) or, for bench/pagePool.ts's baseline, the pages in turn. */
  idleOrder?: IdleOrder;
}

export type IdleOrder = 'last-used' | 'in-turn';

export interface RenderSupervisorStats {
  pagesInUse: number;
  pagesIdle: number;
  /** Admitted renders waiting for a page. */
  queued: number;
  /** Browser launches after the first (crashes, kills, retirements). */
  restarts: number;
}

interface Waiter {
  resolve(page: PooledPage): void;
  reject(error: unknown): void;
}

/** After a page could not be opened, the next attempt (for a render that waits) comes this much later. */
const CREATE_RETRY_MS = 250;

/**
 * The one owner of render capacity, in the shape of Gotenberg's process supervisor: `run(task)`
 * admits a render or turns it away at once, queues it for a warm page, and hands the page back
 * or replaces it afterwards; the browsers behind the pages are the BrowserSupervisor's (restarts
 * after a crash, retirement after its share of renders).
 *
 * Admission counts renders, not pages: at most `pages` rendering plus `queueLimit` waiting. It is
 * decided synchronously, so a caller knows before it does anything else whether its work was taken;
 * `hasRoom()` is the same question for readiness.
 *
 * Pages: `pages` of them are kept open (re-opened whenever one is closed). A page is taken only if
 * `usable` (not crashed, browser current); after a failed or timed-out task it is closed, never
 * reused (it may be mid-navigation or hung). When a browser is retired, its idle pages are closed
 * at once, so the old browser (≈ 400 MB) goes as soon as its last render ends.
 *
 * The idle page taken is the one used last (a stack, not a queue). A render pays for tearing down
 * the document its page printed before, and a page that printed a moment ago has it all in the
 * caches; taking the pages in turn made each render of sequential traffic run on the page that had
 * sat out the previous one. npm run bench:page-pool, 400 distinct invoices of 1 to 200 lines one
 * after another on 2 cores: 0.947–0.970× the wall time of taking them in turn (three runs), the
 * p50 of 1 to 50 lines 3–15 % lower, 200 lines within ±2 %. Under load every page is busy anyway,
 * so the order only matters while some sit idle.
 */
export class RenderSupervisor {
  readonly #options: RenderSupervisorOptions;
  readonly #browser: BrowserSupervisor;
  readonly #open = new Set<PooledPage>();
  readonly #idle: PooledPage[] = [];
  readonly #inUse = new Set<PooledPage>();
  readonly #waiters: Waiter[] = [];
  readonly #closing = new Set<Promise<void>>();
  #opening = 0;
  #admitted = 0;
  #closed = false;
  #whenIdle: (() => void) | undefined;

  constructor(options: RenderSupervisorOptions) {
    this.#options = options;
    this.#browser = new BrowserSupervisor({
      ...options.browser,
      log: options.log,
      onRetired: () => this.#closeUnusableIdle(),
    });
  }

  /** Resolves once a browser runs (a service that can't launch Chromium fails at start); pages warm up in the background. */
  async start(): Promise<void> {
    await this.#browser.acquire();
    this.#fill();
  }

  /** Would a render be admitted now? The question run() asks, and readiness too. */
  hasRoom(): boolean {
    return !this.#closed && this.#admitted < this.#options.pages + this.#options.queueLimit;
  }

  /** A browser is up, or is being replaced after a retirement or crash and the last launch worked. */
  healthy(): boolean {
    return !this.#closed && this.#browser.healthy;
  }

  get browserPid(): number | undefined {
    return this.#browser.current?.pid;
  }

  get browserConnected(): boolean {
    return this.#browser.current !== undefined;
  }

  stats(): RenderSupervisorStats {
    return {
      pagesInUse: this.#inUse.size,
      pagesIdle: this.#idle.length,
      queued: this.#waiters.length,
      restarts: this.#browser.restarts,
    };
  }

  /**
   * Runs `task` on a page. Throws renderer_busy (or renderer_unavailable once closed) synchronously
   * when the render is not admitted. `signal` withdraws a render still waiting for a page; one that
   * has its page runs to the end (the page stays warm), and its result is the caller's to drop.
   */
  run<T>(task: (page: PooledPage) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.#closed) throw rendererClosed();
    if (!this.hasRoom()) throw rendererBusy();
    this.#admitted++;
    return this.#runAdmitted(task, signal).finally(() => {
      this.#admitted--;
    });
  }

  async #runAdmitted<T>(task: (page: PooledPage) => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const pooled = await this.#take(signal);
    let reusable = false;
    try {
      const result = await task(pooled);
      reusable = true;
      this.#browser.renderDone(pooled.browser);
      return result;
    } finally {
      this.#inUse.delete(pooled);
      if (reusable) this.#give(pooled);
      else this.#close(pooled);
      if (this.#inUse.size === 0) this.#whenIdle?.();
    }
  }

  #take(signal: AbortSignal | undefined): Promise<PooledPage> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // Most recently used first (see the class comment).
    const next = () => (this.#options.idleOrder === 'in-turn' ? this.#idle.shift() : this.#idle.pop());
    for (let pooled = next(); pooled; pooled = next()) {
      if (usable(pooled)) {
        this.#inUse.add(pooled);
        return Promise.resolve(pooled);
      }
      this.#close(pooled);
    }
    this.#fill();
    return new Promise((resolve, reject) => {
      const leave = () => {
        const index = this.#waiters.indexOf(waiter);
        if (index >= 0) this.#waiters.splice(index, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        resolve: (pooled) => {
          leave();
          this.#inUse.add(pooled);
          resolve(pooled);
        },
        reject: (error) => {
          leave();
          reject(error);
        },
      };
      const onAbort = () => waiter.reject(signal?.reason);
      // Waiting a whole render deadline for a page means overloaded, like a full queue.
      const timer = setTimeout(
        () => waiter.reject(rendererBusy(new Error(`no page within ${this.#options.waitTimeoutMs} ms`))),
        this.#options.waitTimeoutMs,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  /** A page back from a render, or a new one: to the first waiting render, else idle. */
  #give(pooled: PooledPage): void {
    if (this.#closed || !usable(pooled)) return this.#close(pooled);
    const waiter = this.#waiters[0];
    if (waiter) waiter.resolve(pooled);
    else this.#idle.push(pooled);
  }

  /** Opens pages until `pages` are open or opening; a new browser is launched if needed. */
  #fill(): void {
    while (!this.#closed && this.#open.size + this.#opening < this.#options.pages) {
      this.#opening++;
      openPage(this.#browser, this.#options.log).then(
        (pooled) => {
          this.#opening--;
          this.#open.add(pooled);
          this.#give(pooled);
        },
        (error) => {
          this.#opening--;
          this.#options.log({ event: 'page_create_failed', error: String(error) });
          if (!this.#closed && this.#waiters.length > 0) setTimeout(() => this.#fill(), CREATE_RETRY_MS).unref();
        },
      );
    }
  }

  #close(pooled: PooledPage): void {
    const index = this.#idle.indexOf(pooled);
    if (index >= 0) this.#idle.splice(index, 1);
    if (!this.#open.delete(pooled)) return;
    const closing = closePage(this.#browser, pooled)
      .catch((error) => this.#options.log({ event: 'page_destroy_failed', error: String(error) }))
      .finally(() => this.#closing.delete(closing));
    this.#closing.add(closing);
    this.#fill();
  }

  #closeUnusableIdle(): void {
    for (const pooled of this.#idle.filter((page) => !usable(page))) this.#close(pooled);
  }

  /** Turns waiting renders away, waits for those rendering, then closes every page and browser. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const waiter of [...this.#waiters]) waiter.reject(rendererClosed());
    if (this.#inUse.size > 0) await new Promise<void>((resolve) => (this.#whenIdle = resolve));
    for (const pooled of [...this.#open]) this.#close(pooled);
    await Promise.all(this.#closing);
    await this.#browser.close();
  }
}
