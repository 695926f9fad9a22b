import type { CDPSession } from 'puppeteer-core';
import { InputRejected, type Issue } from '../errors.js';
import { collapsed, factsOf, type Fact } from './contractFacts.js';
import { HIDING_REASONS, seeFactsExpression, type PageFact } from './factsOnPage.js';
import type { InvoiceView } from './invoiceView.js';
import { factsMissingFromText, type AskedFacts } from './textOnPage.js';

/**
 * The print-time check of a customer's design (docs/templates.md): before the page is printed, the
 * page Chromium laid out (as printed: designLayout.ts) must show every fact of *this* invoice, as
 * the content contract asked of the reference invoices: present in its text and visible
 * (factsOnPage.ts: one DevTools evaluation; the page's own scripts stay off), or, for an invoice
 * the design's content contract covers (designCoverage.ts), present in its text. A miss is a 400
 * template_incomplete: nothing is printed, nothing is settled.
 */
export interface UnseenFact {
  fact: Fact;
  /** "missing", or why it is hidden (factsOnPage.ts). */
  reason: string;
}

/** The facts of the view that the laid-out page does not show. */
export async function unseenFacts(
  session: CDPSession,
  view: InvoiceView,
  pageWidthPx: number,
  { hitTest = false }: { hitTest?: boolean } = {},
): Promise<UnseenFact[]> {
  const facts = factsOf(view);
  const asked: PageFact[] = facts.map((fact) =>
    fact.drawing !== undefined ? { drawing: fact.drawing } : { text: collapsed(fact.text!) },
  );
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
    expression: seeFactsExpression(asked, pageWidthPx, hitTest),
    returnByValue: true,
  });
  if (exceptionDetails)
    throw new Error(
      `reading the page's facts failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`,
    );
  return (result.value as [number, string][]).map(([index, reason]) => ({ fact: facts[index]!, reason }));
}

/** The issue of a fact the page does not show: missing_fact, or hidden_fact with its reason. */
export function unseenIssue({ fact, reason }: UnseenFact, shown: string): Issue & { reason?: string } {
  if (reason === 'missing') return { path: fact.field, code: 'missing_fact', message: `is not on the page${shown}` };
  return {
    path: fact.field,
    code: 'hidden_fact',
    reason,
    message: `is on the page but ${HIDING_REASONS[reason] ?? reason}${shown}`,
  };
}

export async function checkPrintedFacts(session: CDPSession, view: InvoiceView, pageWidthPx: number): Promise<void> {
  refuseUnseen(await unseenFacts(session, view, pageWidthPx));
}

/**
 * The check of an invoice its design's contract covers (designCoverage.ts): every fact in the
 * written page's text (textOnPage.ts), nothing laid out.
 */
export async function checkPrintedText(session: CDPSession, asked: AskedFacts): Promise<void> {
  const missing = await factsMissingFromText(session, asked);
  refuseUnseen(missing.map((fact) => ({ fact, reason: 'missing' })));
}

function refuseUnseen(unseen: UnseenFact[]): void {
  if (unseen.length === 0) return;
  const issues: Issue[] = unseen
    .slice(0, 100)
    .map((found) => unseenIssue(found, found.reason === 'missing' ? ' this design printed for this invoice' : ''));
  throw new InputRejected(
    'template_incomplete',
    `The design leaves out or hides what this invoice must show (${unseen
      .map(({ fact }) => fact.field)
      .slice(0, 5)
      .join(', ')}${unseen.length > 5 ? ', …' : ''}); nothing was printed or charged.`,
    issues,
  );
}
