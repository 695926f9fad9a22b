import type { HTTPRequest, Page } from 'puppeteer-core';
import { servedFont } from '../fonts/servedFonts.js';

/**
 * Makes a page safe for untrusted text. Templates escape it, but if markup ever slipped through,
 * it still could not run or fetch anything:
 *  - JavaScript off: no script, no WebSocket, no timers;
 *  - offline mode: the one measure that stopped every network vector tried, prefetch included
 *    (docs/rendering.md, Safety);
 *  - request interception as a second layer: every request is aborted. Content arrives through
 *    Page.setDocumentContent (printPage.ts), which writes the document without a request, so
 *    the only requests a page has a use for are the about:blank it starts on and the stored fonts
 *    its CSS names on the service-internal font origin (src/fonts/servedFonts.ts), answered here
 *    from memory: never from a file, never from the network.
 *
 * Chromium keeps a served font (measured: one request per font for every later render), which is
 * what spares later renders its loading; the cache, which puppeteer turns off with interception,
 * stays on so that the other pages of the browser share it. A served font is immutable (its URL is
 * its hash); nothing else is ever answered, so nothing else is ever cached.
 */
export async function lockDownPage(page: Page): Promise<void> {
  await page.setJavaScriptEnabled(false);
  await page.setOfflineMode(true);
  await page.setRequestInterception(true);
  await page.setCacheEnabled(true);
  page.on('request', (request: HTTPRequest) => {
    if (request.isInterceptResolutionHandled()) return;
    const font = request.method() === 'GET' ? servedFont(request.url()) : undefined;
    if (font !== undefined) {
      void request
        .respond({
          status: 200,
          contentType: font.mediaType,
          // A font is fetched in CORS mode; the page's own origin is opaque (about:blank).
          headers: { 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=31536000, immutable' },
          body: font.body,
        })
        .catch(() => undefined);
    } else if (request.url() === 'about:blank' && request.isNavigationRequest()) {
      void request.continue().catch(() => undefined);
    } else {
      void request.abort('blockedbyclient').catch(() => undefined);
    }
  });
}
