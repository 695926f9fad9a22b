import type { CDPSession } from 'puppeteer-core';
import { collapsed, type Fact } from './contractFacts.js';

/**
 * The print-time check of an invoice its design's content contract covers (designCoverage.ts):
 * which facts the page's text and drawings do not hold, read in one DevTools evaluation from the
 * document as written, before anything is laid out (no style, no box: the page stays in screen
 * media, where the renderer's copy is never laid out, templates.ts SCREEN_OFF_CSS). The text is
 * walked as factsOnPage.ts walks it: outside head, style, script, template, title, noscript and
 * `hidden` elements, white space collapsed; a drawing fact (a QR code) is the `d` of a path.
 * A fact counts as present exactly when the page's text contains it (the whole text of one node,
 * or anywhere in the text).
 */
const SEE_TEXT = String.raw`(texts, drawings) => {
  const SKIP = new Set(['head', 'style', 'script', 'template', 'title', 'noscript']);
  const NEEDS_COLLAPSE = /[^\S ]|  /;
  const parts = [], paths = new Set();
  let afterSpace = true;
  const add = (data) => {
    // Replaced only where there is something to collapse: most nodes have single spaces alone.
    let part = NEEDS_COLLAPSE.test(data) ? data.replace(/[\s\u00a0\u202f]+/g, ' ') : data;
    if (afterSpace && part.charCodeAt(0) === 32) part = part.slice(1);
    if (part.length === 0) return;
    parts.push(part);
    afterSpace = part.charCodeAt(part.length - 1) === 32;
  };
  const walk = (node) => {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      const type = child.nodeType;
      if (type === 3) add(child.data);
      if (type !== 1) continue;
      const tag = child.localName.toLowerCase();
      if (SKIP.has(tag) || child.hasAttribute('hidden')) continue;
      if (tag === 'path' && child.hasAttribute('d')) paths.add(child.getAttribute('d'));
      walk(child);
    }
  };
  // A body with nothing to skip (most pages) is read by Chromium's own iteration, a quarter of the
  // walk's cost at 200 lines; one with something to skip, element by element.
  const body = document.body;
  if (body && body.querySelector(':is(' + [...SKIP].join(',') + ', [hidden])') === null) {
    const text = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    for (let node = text.nextNode(); node !== null; node = text.nextNode()) add(node.data);
    if (drawings.length > 0) for (const path of body.querySelectorAll('path[d]')) paths.add(path.getAttribute('d'));
  } else walk(document);
  // Most facts are the whole text of one node (a cell, a heading): found by a lookup; the others
  // by a search of the page's text (416 searches of it cost ≈ 1.7 ms at 200 lines).
  const whole = new Set();
  for (const part of parts) whole.add(part.trim());
  let text;
  const missing = [];
  for (const [index, fact] of texts) if (!whole.has(fact) && !(text ??= parts.join('')).includes(fact)) missing.push(index);
  for (const [index, d] of drawings) if (!paths.has(d)) missing.push(index);
  return missing;
}`;

/** The evaluation's expression for these facts: the indexes of those the page does not hold. */
export function textFactsExpression(facts: readonly Fact[]): string {
  const texts: [number, string][] = [];
  const drawings: [number, string][] = [];
  facts.forEach((fact, index) =>
    fact.drawing !== undefined ? drawings.push([index, fact.drawing]) : texts.push([index, collapsed(fact.text!)]),
  );
  return `(${SEE_TEXT})(...${JSON.stringify([texts, drawings])})`;
}

/** The facts the written page's text and drawings do not hold. */
export async function factsMissingFromText(session: CDPSession, facts: readonly Fact[]): Promise<Fact[]> {
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
    expression: textFactsExpression(facts),
    returnByValue: true,
  });
  if (exceptionDetails)
    throw new Error(
      `reading the page's text failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`,
    );
  return (result.value as number[]).map((index) => facts[index]!);
}
