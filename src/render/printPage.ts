import type { CDPSession, Page } from 'puppeteer-core';
import { takeStoredFaces } from '../fonts/fontFace.js';
import { withoutDesignCsp } from './designPage.js';
import { PageFonts } from './pageFonts.js';
import type { PrintParams } from './printOptions.js';

/**
 * Fills a page with HTML and prints it, in two DevTools calls on a session of the page's own:
 * Page.setDocumentContent (the document is written and parsed in the call, no request is made)
 * and Page.printToPDF returning the PDF in its answer.
 *
 * Why not page.setContent + page.pdf: for the same document and options they print the same PDF
 * (compared byte for byte, timestamps aside), but puppeteer adds round trips around them: an
 * isolated world to evaluate document.write in, a wait for the load event, document.fonts.ready,
 * and reading the PDF back as a stream (IO.read, IO.close). Each call costs a pipe write and a
 * wake-up of both processes; together ≈ 1.5 ms of Node CPU per render and 10–15% of a small
 * invoice's render time (npm run bench:print-path). Our pages need none of it: JavaScript is off, nothing loads but the
 * stored fonts a page names, which the page holds before the document is written (pageFonts.ts). Every lock-down of lockDownPage() stays in force: those are settings
 * of the page (its target), whichever session sends the content.
 */
export interface PrintablePage {
  readonly session: CDPSession;
  readonly frameId: string;
  /** The stored fonts the page holds across renders. */
  readonly fonts: PageFonts;
  /** Whether a document written on the page carried a customer design's CSP, which the page then keeps (writeHtml). */
  designCspHeld: boolean;
}

export async function openPrintablePage(page: Page): Promise<PrintablePage> {
  const session = await page.createCDPSession();
  const { frameTree } = await session.send('Page.getFrameTree');
  return { session, frameId: frameTree.frame.id, fonts: new PageFonts(), designCspHeld: false };
}

/**
 * `beforePrint`: asked once the document is in the page and before it prints (printedFacts.ts).
 * Its first DevTools call is sent right behind the document's, without waiting for its answer:
 * the page's session runs them in order and Page.setDocumentContent parses the whole document
 * before it answers (Blink writes it with document.open, which parses synchronously), so the
 * check reads the document written, and its answer comes back without a round trip of its own
 * (one wake-up of both processes less per checked print: 5–10 ms of waiting on the loaded bench
 * machine, measured 2026-12-06). The print waits for the check.
 */
export async function printHtml(
  target: PrintablePage,
  page: string,
  params: PrintParams,
  beforePrint?: (session: CDPSession) => Promise<void>,
): Promise<Buffer> {
  const { answered } = await writeHtml(target, page);
  if (beforePrint) {
    const checked = beforePrint(target.session);
    // A document that failed to be written fails the print with its own error, not the check's.
    await answered.catch((error: unknown) => {
      checked.catch(() => undefined);
      throw error;
    });
    await checked;
  } else await answered;
  const { data } = await target.session.send('Page.printToPDF', { ...params, transferMode: 'ReturnAsBase64' });
  return Buffer.from(data, 'base64');
}

/** Writes the document into the page (its stored fonts held first) without printing it. */
export async function layOutHtml(target: PrintablePage, page: string): Promise<void> {
  await (
    await writeHtml(target, page)
  ).answered;
}

/**
 * Holds the page's stored fonts, then sends Page.setDocumentContent: answers once the call is on
 * its way, with its answer to wait for (a holder, so that no promise of it is left unawaited).
 *
 * A customer design's page carries its content security policy (designPage.ts) as a meta element.
 * A document's policies stay when the next document is written (document.open keeps them: an image
 * a policy refused stays refused in a later document without it, measured), so each design page
 * written with the meta added one more copy of the same policy to the page, and Chromium's browser
 * process does work for every copy each time a meta is read: 0.5 ms of its CPU per write with a few
 * copies, 2.4 ms with 500 (a page serves up to 2,000 renders), measured 2026-12-07 (bench
 * docs/templates.md "Measured"). So the meta goes in once per render page, with the page's first
 * design document; later ones are written without it and stay under the same policy.
 */
async function writeHtml(target: PrintablePage, page: string): Promise<{ answered: Promise<unknown> }> {
  const { html: stored, faces } = takeStoredFaces(page);
  const withoutCsp = withoutDesignCsp(stored);
  const html = withoutCsp !== undefined && target.designCspHeld ? withoutCsp : stored;
  await target.fonts.hold(target.session, faces);
  const answered = target.session.send('Page.setDocumentContent', { frameId: target.frameId, html });
  if (withoutCsp === undefined || target.designCspHeld) return { answered };
  return {
    answered: answered.then((answer) => {
      target.designCspHeld = true;
      return answer;
    }),
  };
}
