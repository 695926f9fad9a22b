import type { Page } from 'puppeteer-core';
import type { BrowserHandle, BrowserSupervisor } from './browser.js';
import { lockDownPage } from './lockDownPage.js';
import { openPrintablePage, type PrintablePage } from './printPage.js';

/**
 * One warm, locked-down Chromium page. A page is reused across renders (a new page per request
 * costs ≈ 3× the render itself) until anything about it is doubtful (`usable`).
 */
export interface PooledPage {
  readonly page: Page;
  /** The page's own DevTools session that renders are printed through (printPage.ts). */
  readonly printable: PrintablePage;
  readonly browser: BrowserHandle;
  /** Set when the page crashed; never reused after that. */
  broken: boolean;
  /** Rejects when the page crashes, so a render fails at once instead of at its deadline. */
  readonly crashed: Promise<never>;
}

const PAGE_CLOSE_TIMEOUT_MS = 5_000;

/** A page may take another render: not crashed, not closed, its browser current and connected. */
export const usable = (pooled: PooledPage): boolean =>
  !pooled.broken && !pooled.page.isClosed() && !pooled.browser.retired && pooled.browser.browser.connected;

export async function openPage(supervisor: BrowserSupervisor, log: (event: object) => void): Promise<PooledPage> {
  let handle = await supervisor.acquire();
  let page: Page;
  try {
    page = await handle.browser.newPage();
  } catch (error) {
    // The browser died between acquire and newPage (a kill lands at any moment): try once more,
    // which launches a new one.
    if (handle.browser.connected) throw error;
    handle = await supervisor.acquire();
    page = await handle.browser.newPage();
  }
  supervisor.pageOpened(handle);
  let printable: PrintablePage;
  try {
    await lockDownPage(page);
    printable = await openPrintablePage(page);
  } catch (error) {
    await page.close().catch(() => undefined);
    supervisor.pageClosed(handle);
    throw error;
  }
  let reportCrash: (error: Error) => void = () => undefined;
  const crashed = new Promise<never>((_, reject) => {
    reportCrash = reject;
  });
  crashed.catch(() => undefined);
  const pooled: PooledPage = { page, printable, browser: handle, broken: false, crashed };
  page.on('error', (error) => {
    // A renderer crash ("Page crashed!") does not disconnect the browser, and reusing the page
    // hangs until the protocol timeout: mark it, fail the render on it now, and move on to a new browser.
    if (pooled.broken) return;
    pooled.broken = true;
    log({ event: 'page_crashed', pid: handle.pid, error: String(error) });
    supervisor.retire(handle, 'page_crashed');
    reportCrash(error);
  });
  return pooled;
}

export async function closePage(supervisor: BrowserSupervisor, pooled: PooledPage): Promise<void> {
  try {
    if (pooled.browser.browser.connected && !pooled.page.isClosed()) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        pooled.page.close().catch(() => undefined),
        new Promise((resolve) => (timer = setTimeout(resolve, PAGE_CLOSE_TIMEOUT_MS))),
      ]);
      clearTimeout(timer);
    }
  } finally {
    supervisor.pageClosed(pooled.browser);
  }
}
