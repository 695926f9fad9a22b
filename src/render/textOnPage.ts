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
  // The body as the document holds it: an element's name shadows document.body (<img name="body">:
  // the check would read the image, nothing, and refuse every fact of a page that shows them).
  const body = Object.getOwnPropertyDescriptor(Document.prototype, 'body').get.call(document);
  // A body with nothing to skip (most pages) is read by Chromium in one call (textContent); one
  // with something to skip, node by node. This function runs once per document, uncompiled:
  // loops index arrays rather than destructure (≈ 4× less time at 200 lines, measured).
  if (body && body.querySelector(SKIP.join(',') + ',[hidden]') === null) {
    raw = body.textContent;
    if (drawings.length > 0) for (const path of body.querySelectorAll('path[d]')) paths.add(path.getAttribute('d'));
  } else {
    const parts = [];
    const walk = (node) => {
      for (let child = node.firstChild; child !== null; child = child.nextSibling) {
        const type = child.nodeType;
        if (type === 3) parts.push(child.data);
        if (type !== 1) continue;
        const tag = child.localName.toLowerCase();
        if (SKIP.includes(tag) || child.hasAttribute('hidden')) continue;
        if (tag === 'path' && child.hasAttribute('d')) paths.add(child.getAttribute('d'));
        walk(child);
      }
    };
    walk(document);
    raw = parts.join('');
  }
  // \s holds the no-break spaces (U+00A0, U+202F) too; written as a class with them it ran 2.6× slower.
  const text = raw.replace(/\s+/g, ' ');
  // The facts come in about the order the page shows them: each search starts where the last
  // fact was found, and only one not found after it searches the whole text.
  const missing = [];
  let from = 0;
  for (let at = 0; at < texts.length; at++) {
    let found = text.indexOf(texts[at], from);
    if (found === -1 && from > 0) found = text.indexOf(texts[at]);
    if (found === -1) missing.push(at);
    else from = found;
  }
  for (let at = 0; at < drawings.length; at++) if (!paths.has(drawings[at])) missing.push(texts.length + at);
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

/**
 * The evaluation's expression for these facts: the positions of those the page does not hold,
 * texts first, then drawings. The facts go in as one JSON string the page parses (JSON.parse reads
 * 400 facts in a quarter of the time the same array written as a literal takes).
 */
export function textFactsExpression({ texts, drawings }: AskedFacts): string {
  const json = JSON.stringify([texts.map(([, text]) => text), drawings.map(([, drawing]) => drawing)]);
  return `(${SEE_TEXT})(...JSON.parse(${JSON.stringify(json)}))`;
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
  const byPosition = [...asked.texts, ...asked.drawings];
  return (result.value as number[]).map((position) => asked.facts[byPosition[position]![0]]!);
}
