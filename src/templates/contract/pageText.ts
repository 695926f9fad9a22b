import type { DefaultTreeAdapterMap } from 'parse5';

type ParentNode = DefaultTreeAdapterMap['parentNode'];

/** Elements whose text never shows on a printed page. */
const UNSHOWN = new Set(['head', 'style', 'script', 'template', 'title', 'noscript']);

/**
 * The text a filled page shows and the paths of its drawings, from the page as the browser will
 * parse it (parse5's document): text nodes outside <head>, <style>, <template> and elements marked `hidden`, joined as
 * they follow each other. It is the page's text, not its styling: what CSS hides is counted here
 * and refused by the contract's second half, on the laid-out pages (seenContract.ts).
 */
export function pageText(document: DefaultTreeAdapterMap['document']): { text: string; drawings: Set<string> } {
  const parts: string[] = [];
  const drawings = new Set<string>();
  const walk = (node: ParentNode) => {
    for (const child of node.childNodes) {
      if (child.nodeName === '#text') parts.push((child as DefaultTreeAdapterMap['textNode']).value);
      if (!('tagName' in child)) continue;
      if (UNSHOWN.has(child.tagName) || child.attrs.some((attribute) => attribute.name === 'hidden')) continue;
      if (child.tagName === 'path') {
        const d = child.attrs.find((attribute) => attribute.name === 'd');
        if (d) drawings.add(d.value);
      }
      walk(child);
    }
  };
  walk(document);
  return { text: parts.join(''), drawings };
}
