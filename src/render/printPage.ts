import type { CDPSession, Page } from 'puppeteer-core';
import { takeStoredFaces } from '../fonts/fontFace.js';
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
}

export async function openPrintablePage(page: Page): Promise<PrintablePage> {
  const session = await page.createCDPSession();
  const { frameTree } = await session.send('Page.getFrameTree');
  return { session, frameId: frameTree.frame.id, fonts: new PageFonts() };
}

/**
 * A print's check of its document (printedFacts.ts), in one of two ways:
 * - a function, asked once the document is in the page and before it prints. Its first DevTools
 *   call is sent right behind the document's, without waiting for its answer: the page's session
 *   runs them in order and Page.setDocumentContent parses the whole document before it answers
 *   (Blink writes it with document.open, which parses synchronously), so the check reads the
 *   document written. The full check of a customer's design (designCheck.ts);
 * - a check written into the document's own write (CheckedWhileWritten): one Runtime.evaluate
 *   writes the document and reads it, one DevTools call instead of two. A call costs Chromium
 *   1.1–1.7 ms of CPU whatever it does (dispatch, the answer), ≈ 5% of a 1-line print
 *   (docs/templates.md, Measured). The text's check of a covered invoice.
 */
export type BeforePrint = ((session: CDPSession) => Promise<void>) | CheckedWhileWritten;

export interface CheckedWhileWritten {
  /** An expression run in the page once the document is written there: its value is the check's answer. */
  readonly expression: string;
  /**
   * Asked as soon as the evaluation is sent, with its answer to come (the expression's value):
   * refuses the print by throwing, and may check more on the session; the print waits for it.
   */
  readonly judge: (answer: Promise<unknown>, session: CDPSession) => Promise<void>;
}

export async function printHtml(
  target: PrintablePage,
  page: string,
  params: PrintParams,
  beforePrint?: BeforePrint,
): Promise<Buffer> {
  if (beforePrint && typeof beforePrint !== 'function') {
    const { html, faces } = takeStoredFaces(page);
    await target.fonts.hold(target.session, faces);
    const answer = writtenAndRead(target.session, html, beforePrint.expression);
    // Judged by beforePrint, which may fail before it waits for the answer: never left unhandled.
    answer.catch(() => undefined);
    await beforePrint.judge(answer, target.session);
  } else {
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
  }
  const { data } = await target.session.send('Page.printToPDF', { ...params, transferMode: 'ReturnAsBase64' });
  return Buffer.from(data, 'base64');
}

/**
 * Writes the document and evaluates `read` on it, in one Runtime.evaluate: the value of `read`.
 * The document is written as Page.setDocumentContent writes it (Blink's Document::SetContent is
 * open, the parser fed the whole text, close: synchronous, no request, the same document reopened
 * so the held fonts stay), and the PDF printed after is the same, byte for byte (the tagged PDF's
 * node ids aside, which differ between any two writes; measured at 1, 20 and 200 lines, 2026-12-06).
 * The page's scripts are off, so nothing of the document runs between the write and the read; the
 * methods are taken from Document.prototype, not looked up on the document, where an element's
 * name (`<img name="close">`, of this document or the page's previous one) could shadow them.
 * The HTML goes in as a JSON string literal: text, never code.
 */
async function writtenAndRead(session: CDPSession, html: string, read: string): Promise<unknown> {
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
    expression: `(() => { const { open, write, close } = Document.prototype; open.call(document); write.call(document, ${JSON.stringify(html)}); close.call(document); return ${read}; })()`,
    returnByValue: true,
  });
  if (exceptionDetails)
    throw new Error(
      `writing and reading the page failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`,
    );
  return result.value as unknown;
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
 */
async function writeHtml(target: PrintablePage, page: string): Promise<{ answered: Promise<unknown> }> {
  const { html, faces } = takeStoredFaces(page);
  await target.fonts.hold(target.session, faces);
  return { answered: target.session.send('Page.setDocumentContent', { frameId: target.frameId, html }) };
}
