import puppeteer, { type Browser } from 'puppeteer-core';
import { headlessMode } from './chromiumPath.js';
import type { ScratchDir } from './scratchDir.js';

/**
 * Keeps one Chromium running for the render supervisor's pages. The browser is launched on demand (the first page
 * asked for after start, a crash or a retirement), shared by every page created while it is
 * current, and replaced:
 *  - at once when it disconnects (killed, crashed): the pages on it are no longer usable and are
 *    closed, and the next page opened launches a new browser, so renders waiting in the queue get
 *    a page on the new browser instead of failing;
 *  - after maxRenders renders (its successor is launched first, so no render waits for it), or
 *    when one of its pages crashed: it is retired, new pages go to the new browser, and the old
 *    one is closed when its last page is closed.
 */
export interface BrowserHandle {
  readonly browser: Browser;
  readonly pid: number | undefined;
  readonly profileDir: string;
  renders: number;
  openPages: number;
  /** Takes no new pages; closed when openPages drops to 0. */
  retired: boolean;
}

export interface BrowserSupervisorOptions {
  executablePath: string;
  /** False in containers whose seccomp profile denies the namespaces Chromium's sandbox needs. */
  sandbox: boolean;
  maxRenders: number;
  protocolTimeoutMs: number;
  scratch: ScratchDir;
  log: (event: object) => void;
  /** Called when a browser is retired or gone: its idle pages are to be closed (renderSupervisor.ts). */
  onRetired?: () => void;
}

/**
 * Chromium flags for a server that renders trusted templates filled with untrusted text. Network
 * features are off because nothing may be fetched anyway; /dev/shm is small in containers; the
 * sandbox cannot run as root.
 *
 * No host name or address resolves, IP literals included: the third network layer, under offline
 * mode and request interception (lockDownPage.ts). Those two stop every request, but measured
 * here they let Chromium open TCP connections for navigations (<object>, <embed>, meta refresh)
 * and <link rel=preconnect> before the request is blocked; with this rule nothing connects.
 */
export function chromiumArgs(sandbox = true, isRoot: boolean = process.getuid?.() === 0): string[] {
  return [
    ...(isRoot || !sandbox ? ['--no-sandbox'] : []),
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
    '--host-resolver-rules=MAP * ~NOTFOUND',
    '--disable-extensions',
    '--disable-default-apps',
    '--mute-audio',
    '--hide-scrollbars',
  ];
}

const CLOSE_TIMEOUT_MS = 5_000;
/** A broken Chromium must not be relaunched in a tight loop by every waiting render. */
const LAUNCH_RETRY_DELAY_MS = 1_000;

export class BrowserSupervisor {
  readonly #options: BrowserSupervisorOptions;
  #current: BrowserHandle | undefined;
  #launching: Promise<BrowserHandle> | undefined;
  readonly #live = new Set<BrowserHandle>();
  #launches = 0;
  #lastLaunchFailure = 0;
  #lastLaunchOk = false;
  #closed = false;

  constructor(options: BrowserSupervisorOptions) {
    this.#options = options;
  }

  /** The browser new pages go to; launches one when there is none. */
  acquire(): Promise<BrowserHandle> {
    if (this.#closed) return Promise.reject(new Error('the browser supervisor is closed'));
    const current = this.#current;
    if (current && !current.retired && current.browser.connected) return Promise.resolve(current);
    if (current) this.retire(current, 'disconnected');
    this.#launching ??= this.#launch().finally(() => {
      this.#launching = undefined;
    });
    return this.#launching;
  }

  get current(): BrowserHandle | undefined {
    return this.#current?.browser.connected ? this.#current : undefined;
  }

  /**
   * A browser is up, or the last launch worked and the next one (after a retirement or a crash)
   * is expected to: the renderer can take work.
   */
  get healthy(): boolean {
    return !this.#closed && (this.current !== undefined || this.#lastLaunchOk);
  }

  /** Browser launches after the first: crashes, kills and retirements together. */
  get restarts(): number {
    return Math.max(0, this.#launches - 1);
  }

  pageOpened(handle: BrowserHandle): void {
    handle.openPages++;
  }

  pageClosed(handle: BrowserHandle): void {
    handle.openPages--;
    if (handle.retired && handle.openPages <= 0) void this.#dispose(handle);
  }

  /**
   * Counts a finished render. A browser that has done its share is replaced without a gap: the
   * successor is launched first while the old one keeps serving, then the old one is retired. If
   * the launch fails, the old browser carries on and the next render tries again.
   */
  renderDone(handle: BrowserHandle): void {
    handle.renders++;
    if (handle.renders < this.#options.maxRenders || handle !== this.#current || this.#launching || this.#closed)
      return;
    this.#launching = this.#launch().finally(() => {
      this.#launching = undefined;
    });
    this.#launching.then(
      () => this.retire(handle, 'max_renders'),
      () => undefined,
    );
  }

  retire(handle: BrowserHandle, reason: string): void {
    if (this.#current === handle) this.#current = undefined;
    if (handle.retired) return;
    handle.retired = true;
    this.#options.log({ event: 'browser_retired', pid: handle.pid, reason, renders: handle.renders });
    if (handle.openPages <= 0 || !handle.browser.connected) void this.#dispose(handle);
    this.#options.onRetired?.();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#launching?.catch(() => undefined);
    this.#current = undefined;
    await Promise.all([...this.#live].map((handle) => this.#dispose(handle)));
  }

  async #launch(): Promise<BrowserHandle> {
    const wait = this.#lastLaunchFailure + LAUNCH_RETRY_DELAY_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const { scratch, executablePath, sandbox, protocolTimeoutMs, log } = this.#options;
    const profileDir = scratch.profile();
    const started = performance.now();
    let browser: Browser;
    try {
      browser = await puppeteer.launch({
        executablePath,
        headless: headlessMode(executablePath),
        // A pipe instead of a DevTools port: no other local process can connect to our browser.
        pipe: true,
        userDataDir: profileDir,
        args: chromiumArgs(sandbox),
        env: { ...process.env, TMPDIR: scratch.path },
        // Without it a renderer crash hangs a page call for puppeteer's default 180 s.
        protocolTimeout: protocolTimeoutMs,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (error) {
      this.#lastLaunchFailure = Date.now();
      this.#lastLaunchOk = false;
      scratch.remove(profileDir);
      log({ event: 'browser_launch_failed', error: String(error) });
      throw error;
    }
    const handle: BrowserHandle = {
      browser,
      pid: browser.process()?.pid,
      profileDir,
      renders: 0,
      openPages: 0,
      retired: false,
    };
    this.#live.add(handle);
    if (this.#closed) {
      await this.#dispose(handle);
      throw new Error('the browser supervisor is closed');
    }
    browser.once('disconnected', () => {
      if (!this.#live.has(handle)) return; // we closed it ourselves
      log({ event: 'browser_disconnected', pid: handle.pid, renders: handle.renders });
      this.retire(handle, 'disconnected');
    });
    this.#launches++;
    this.#lastLaunchOk = true;
    this.#current = handle;
    log({
      event: 'browser_launched',
      pid: handle.pid,
      ms: Math.round(performance.now() - started),
      restarts: this.restarts,
    });
    return handle;
  }

  /** Closes a browser (killing it if it doesn't go), then removes its profile. Idempotent; never throws. */
  async #dispose(handle: BrowserHandle): Promise<void> {
    if (!this.#live.delete(handle)) return;
    if (this.#current === handle) this.#current = undefined;
    try {
      const child = handle.browser.process();
      if (handle.browser.connected) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          handle.browser.close().catch(() => undefined),
          new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS))),
        ]);
        clearTimeout(timer);
      }
      if (child && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
      this.#options.scratch.remove(handle.profileDir);
      this.#options.log({ event: 'browser_closed', pid: handle.pid, renders: handle.renders });
    } catch (error) {
      this.#options.log({ event: 'browser_close_failed', pid: handle.pid, error: String(error) });
    }
  }
}
