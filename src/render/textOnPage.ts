import type { CDPSession } from 'puppeteer-core';
import { collapsed, type Fact } from './contractFacts.js';

/**
 * The print-time check of an invoice its design's content contract covers (designCoverage.ts):
 * which facts the page's text and drawings do not hold, read in one DevTools evaluation from the
 * document as written, before anything is laid out (no style, no box: the page stays in screen
 * media, where the renderer's copy is never laid out, templates.ts SCREEN_OFF_CSS). The text is
 * the page's text outside head, style, script, template, title, noscript and `hidden` elements,
 * white space collapsed, as factsOnPage.ts reads it; a drawing fact (a QR code) is the `d` of a
 * path. A fact counts as present exactly when that text contains it.
 */
const SEE_TEXT = String.raw`(texts, drawings) => {
  const SKIP = ['head', 'style', 'script', 'template', 'title', 'noscript'];
  const paths = new Set();
  let raw = '';
  const body = document.body;
  // A body with nothing to skip (most pages) is read by Chromium in one call (textContent); one
  // with something to skip, node by node.
  if (body && body.querySelector(':is(' + SKIP.join(',') + ', [hidden])') === null) {
    raw = body.textContent;
    if (drawings.length > 0) for (const path of body.querySelectorAll('path[d]')) paths.add(path.getAttribute('d'));
  } else {
    const parts = [];
    const walk = (node) => {
      for (let child = node.firstChild; child !== null; child = child.nextSibling) {
        const type = child.nodeType;
        if (type === 3) parts.push(child.data);
        if (type !== 1) continue;
        if (SKIP.includes(child.localName.toLowerCase()) || child.hasAttribute('hidden')) continue;
        if (child.localName.toLowerCase() === 'path' && child.hasAttribute('d')) paths.add(child.getAttribute('d'));
        walk(child);
      }
    };
    walk(document);
    raw = parts.join('');
  }
  const text = raw.replace(/[\s\u00a0\u202f]+/g, ' ');
  // The facts come in about the order the page shows them: each search starts where the last
  // fact was found, and only one not found after it searches the whole text.
  const missing = [];
  let from = 0;
  for (const [index, fact] of texts) {
    let at = text.indexOf(fact, from);
    if (at === -1 && from > 0) at = text.indexOf(fact);
    if (at === -1) missing.push(index);
    else from = at;
  }
  for (const [index, d] of drawings) if (!paths.has(d)) missing.push(index);
  return missing;
}`;

/** The facts of one invoice as the page is searched for them: texts collapsed, drawings apart, by index. */
export interface AskedFacts {
  facts: readonly Fact[];
  texts: [number, string][];
  drawings: [number, string][];
}

export function askedFacts(facts: readonly Fact[]): AskedFacts {
  const asked: AskedFacts = { facts, texts: [], drawings: [] };
  facts.forEach((fact, index) =>
    fact.drawing !== undefined
      ? asked.drawings.push([index, fact.drawing])
      : asked.texts.push([index, collapsed(fact.text!)]),
  );
  return asked;
}

/** The evaluation's expression for these facts: the indexes of those the page does not hold. */
export function textFactsExpression({ texts, drawings }: AskedFacts): string {
  return `(${SEE_TEXT})(...${JSON.stringify([texts, drawings])})`;
}

/** The facts the written page's text and drawings do not hold. */
export async function factsMissingFromText(session: CDPSession, asked: AskedFacts): Promise<Fact[]> {
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
    expression: textFactsExpression(asked),
    returnByValue: true,
  });
  if (exceptionDetails)
    throw new Error(
      `reading the page's text failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`,
    );
  return (result.value as number[]).map((index) => asked.facts[index]!);
}
