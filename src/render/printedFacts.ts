import type { CDPSession } from 'puppeteer-core';
import { InputRejected, type Issue } from '../errors.js';
import { factsOf, missingFacts } from './contractFacts.js';
import type { InvoiceView } from './invoiceView.js';

/**
 * The print-time check of a customer's design (docs/templates.md): before the page is printed, its
 * text is read from the DOM Chromium built (one DevTools call; the page's own scripts stay off) and
 * must hold every fact of *this* invoice, as the content contract asked of the reference invoices
 * (contractFacts.ts, the same rules as pageText.ts: text outside head, style and template, and
 * outside elements marked hidden, and the paths of the drawings). A miss is a 400
 * template_incomplete: nothing is printed, nothing is settled.
 */
const PAGE_TEXT = `(() => {
  const parts = [], drawings = [];
  const skip = new Set(['HEAD', 'STYLE', 'SCRIPT', 'TEMPLATE', 'TITLE', 'NOSCRIPT']);
  const walk = (node) => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) { parts.push(child.data); continue; }
      if (child.nodeType !== 1) continue;
      const tag = child.tagName.toUpperCase();
      if (skip.has(tag) || child.hasAttribute('hidden')) continue;
      if (tag === 'PATH' && child.hasAttribute('d')) drawings.push(child.getAttribute('d'));
      walk(child);
    }
  };
  walk(document);
  return { text: parts.join(''), drawings };
})()`;

export async function checkPrintedFacts(session: CDPSession, view: InvoiceView): Promise<void> {
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
    expression: PAGE_TEXT,
    returnByValue: true,
  });
  if (exceptionDetails) throw new Error(`reading the page's text failed: ${exceptionDetails.text}`);
  const page = result.value as { text: string; drawings: string[] };
  const missing = missingFacts(factsOf(view), { text: page.text, drawings: new Set(page.drawings) });
  if (missing.length === 0) return;
  const issues: Issue[] = missing.slice(0, 100).map((fact) => ({
    path: fact.field,
    code: 'missing_fact',
    message: 'is not on the page this design printed for this invoice',
  }));
  throw new InputRejected(
    'template_incomplete',
    `The design leaves out what this invoice must show (${missing
      .map((fact) => fact.field)
      .slice(0, 5)
      .join(', ')}${missing.length > 5 ? ', …' : ''}); nothing was printed or charged.`,
    issues,
  );
}
