import type { CDPSession } from 'puppeteer-core';
import { collapsed, type Fact } from './contractFacts.js';

/**
 * The print-time check of an invoice its design's content contract covers (designCoverage.ts):
 * which facts the page's text and drawings do not hold, read in one DevTools evaluation from the
 * document as written, before anything is laid out (no style, no box: the page stays in screen
 * media, where the renderer's copy is never laid out, templates.ts SCREEN_OFF_CSS). The text is
 * walked as factsOnPage.ts walks it: outside head, style, script, template, title, noscript and
 * `hidden` elements, white space collapsed; a drawing fact (a QR code) is the `d` of a path.
 */
const SEE_TEXT = String.raw`(texts, drawings) => {
  const SKIP = new Set(['head', 'style', 'script', 'template', 'title', 'noscript']);
  const parts = [], paths = new Set();
  let afterSpace = true;
  const walk = (node) => {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      const type = child.nodeType;
      if (type === 3) {
        let part = child.data.replace(/[\s\u00a0\u202f]+/g, ' ');
        if (afterSpace && part.charCodeAt(0) === 32) part = part.slice(1);
        if (part.length === 0) continue;
        parts.push(part);
        afterSpace = part.charCodeAt(part.length - 1) === 32;
        continue;
      }
      if (type !== 1) continue;
      const tag = child.localName.toLowerCase();
      if (SKIP.has(tag) || child.hasAttribute('hidden')) continue;
      if (tag === 'path' && child.hasAttribute('d')) paths.add(child.getAttribute('d'));
      walk(child);
    }
  };
  walk(document);
  const text = parts.join('');
  const missing = [];
  for (const [index, fact] of texts) if (!text.includes(fact)) missing.push(index);
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
