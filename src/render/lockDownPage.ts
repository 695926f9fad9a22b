import type { HTTPRequest, Page } from 'puppeteer-core';

/**
 * Makes a page safe for untrusted text. Templates escape it, but if markup ever slipped through,
 * it still could not run or fetch anything:
 *  - JavaScript off: no script, no WebSocket, no timers;
 *  - offline mode: the one measure that stopped every network vector tried, prefetch included
 *    (docs/rendering.md, Safety);
 *  - request interception as a second layer: every request is aborted. Content arrives through
 *    Page.setDocumentContent (printPage.ts), which writes the document without a request, so
 *    the only request a page has a use for is the about:blank it starts on.
 */
export async function lockDownPage(page: Page): Promise<void> {
  await page.setJavaScriptEnabled(false);
  await page.setOfflineMode(true);
  await page.setRequestInterception(true);
  page.on('request', (request: HTTPRequest) => {
    if (request.isInterceptResolutionHandled()) return;
    if (request.url() === 'about:blank' && request.isNavigationRequest()) {
      void request.continue().catch(() => undefined);
    } else {
      void request.abort('blockedbyclient').catch(() => undefined);
    }
  });
}
