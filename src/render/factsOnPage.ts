/**
 * Reads, in the rendered page, which of an invoice's facts (contractFacts.ts) a reader would not
 * see: absent from the page's text, or present but hidden. One DevTools evaluation on the page's
 * own session (the page's scripts stay off; DevTools still evaluates), after layout, with the page
 * laid out for print (designLayout.ts): the text is walked as pageText.ts walks it (outside head,
 * style, template and `hidden` elements), white space collapsed, and each fact's first occurrence
 * whose every text node passes the rules below counts. Why a fact is hidden is the first rule its
 * first occurrence broke:
 *  - display_none, visibility_hidden, opacity_zero: on the element or an ancestor (opacity: the
 *    product along the ancestors below MIN_OPACITY);
 *  - transparent_text: the text's colour (or -webkit-text-fill-color) has alpha below MIN_OPACITY;
 *  - same_colour_as_background: contrast with the background under the text (the first box under
 *    it with a background colour, white paper when none) below MIN_CONTRAST;
 *  - too_small: font size, or the height of its box on the page (a transform scales it), below
 *    MIN_FONT_PT;
 *  - no_box: no box at all (collapsed to nothing);
 *  - off_page: its box lies wholly outside the page area (left, right or above it);
 *  - clipped: an ancestor's overflow clips more than a pixel of it, or a clip-path, mask or clip
 *    applies (their geometry is not read: such text is refused rather than guessed at);
 *  - covered: a box painted above it at its left, middle or right point has an opaque background,
 *    a background image, or is an image or drawing (hit testing, scrolled into view).
 * A drawing fact (a QR code's path) must be in a rendered, unclipped <svg> at least MIN_QR_MM wide.
 *
 * What the check costs is reading styles and boxes from Chromium (≈ 0.5 µs a computed value, 3–4 µs
 * a box), not comparing them: so each element's values are read once and kept for its descendants,
 * a text node is judged once however many facts share it, and a fact that is the whole text of one
 * node (a cell, a heading: most of them) is found by a lookup rather than a search of the page's
 * text (bench/printCheck.ts; docs/templates.md "Measured").
 */
const MIN_FONT_PT = 6;
const MIN_OPACITY = 0.1;
const MIN_CONTRAST = 1.2;
const MIN_QR_MM = 10;

/** A fact of the page's check: collapsed text, or a drawing's path. */
export type PageFact = { text: string } | { drawing: string };

const PX_PER_PT = 96 / 72;
const PX_PER_MM = 96 / 25.4;

/**
 * The page's function: (facts, pageWidth px, minFontPx, minOpacity, minContrast, minQrPx) →
 * [[index, reason], ...]. Written as page JavaScript (it runs in Chromium, not in Node).
 */
const SEE_FACTS = String.raw`(facts, pageWidth, minPx, minOpacity, minContrast, minQrPx, hitTest) => {
  const SKIP = new Set(['head', 'style', 'script', 'template', 'title', 'noscript']);
  const nodes = [], starts = [], parts = [], paths = new Map();
  let length = 0, afterSpace = true;
  const walk = (node) => {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      const type = child.nodeType;
      if (type === 3) {
        let part = child.data.replace(/[\s\u00a0\u202f]+/g, ' ');
        if (afterSpace && part.charCodeAt(0) === 32) part = part.slice(1);
        if (part.length === 0) continue;
        starts.push(length); nodes.push(child); parts.push(part);
        length += part.length; afterSpace = part.charCodeAt(part.length - 1) === 32;
        continue;
      }
      if (type !== 1) continue;
      const tag = child.localName.toLowerCase();
      if (SKIP.has(tag) || child.hasAttribute('hidden')) continue;
      if (tag === 'path' && child.hasAttribute('d')) {
        const d = child.getAttribute('d');
        if (!paths.has(d)) paths.set(d, []);
        paths.get(d).push(child);
      }
      walk(child);
    }
  };
  walk(document);
  const text = parts.join('');

  // Each element's computed style is read once and each value derived from it kept (most of the
  // check's cost is reading styles and boxes, not comparing them).
  const styles = new Map();
  const style = (el) => { let s = styles.get(el); if (s === undefined) styles.set(el, (s = getComputedStyle(el))); return s; };
  const colours = new Map();
  let probe;
  const RGBA = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/;
  const parseColour = (colour) => {
    let m = RGBA.exec(colour);
    if (!m && (probe ??= document.createElement('canvas').getContext('2d'))) { probe.fillStyle = '#000'; probe.fillStyle = colour; const c = probe.fillStyle;
      m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/.exec(c);
      if (m) return [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16), 1];
      m = RGBA.exec(c); }
    return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null;
  };
  const rgba = (colour) => { let c = colours.get(colour); if (c === undefined) colours.set(colour, (c = parseColour(colour))); return c ?? undefined; };
  const luminance = ([r, g, b]) => {
    const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const contrast = (a, b) => { const x = luminance(a), y = luminance(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };

  const opacities = new Map();
  const opacity = (el) => {
    if (!el || el.nodeType !== 1) return 1;
    let o = opacities.get(el);
    if (o === undefined) opacities.set(el, (o = +style(el).opacity * opacity(el.parentElement)));
    return o;
  };
  // Boxes are read in the document's coordinates; only the upload's hit tests scroll.
  const scrolled = hitTest ? -1 : scrollY;
  const top = () => (scrolled === -1 ? scrollY : scrolled);
  const outside = (box, dy, clip) => box.left < clip.left - 1 || box.right > clip.right + 1 || box.top + dy < clip.top - 1 || box.bottom + dy > clip.bottom + 1;
  const NO_CLIP = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
  const clips = new Map();
  // The rectangle an element's ancestors (and itself) let show; null when a clip cannot be read.
  const clipOf = (el) => {
    if (!el || el.nodeType !== 1) return NO_CLIP;
    let clip = clips.get(el);
    if (clip !== undefined) return clip;
    const s = style(el);
    clip = clipOf(el.parentElement);
    if (clip && (s.clipPath !== 'none' || s.maskImage !== 'none' || s.clip !== 'auto')) clip = null;
    if (clip && (s.overflow !== 'visible' || s.contain !== 'none' && /paint|strict|content/.test(s.contain))) {
      const r = el.getBoundingClientRect(), dy = top();
      clip = { left: Math.max(clip.left, r.left), top: Math.max(clip.top, r.top + dy), right: Math.min(clip.right, r.right), bottom: Math.min(clip.bottom, r.bottom + dy) };
    }
    clips.set(el, clip);
    return clip;
  };
  const why = (el) => {
    for (let at = el; at; at = at.parentElement) {
      const s = style(at);
      if (s.display === 'none') return 'display_none';
      if (s.contentVisibility === 'hidden') return 'display_none';
    }
    const s = style(el);
    if (s.visibility !== 'visible') return 'visibility_hidden';
    return 'opacity_zero';
  };
  const VISIBLE = { opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true };
  const inks = new Map();
  // The colour the text is drawn in (-webkit-text-fill-color over color); undefined when unreadable.
  const inkOf = (el) => {
    let ink = inks.get(el);
    if (ink === undefined) {
      const s = style(el), fill = s.webkitTextFillColor, colour = s.color;
      inks.set(el, (ink = rgba(colour) ? rgba(fill || colour) ?? null : null));
    }
    return ink ?? undefined;
  };
  const elementReasons = new Map();
  const elementReason = (el) => {
    let reason = elementReasons.get(el);
    if (reason !== undefined) return reason;
    if (!el.checkVisibility(VISIBLE)) reason = why(el);
    else if (opacity(el) < minOpacity) reason = 'opacity_zero';
    else if (parseFloat(style(el).fontSize) < minPx) reason = 'too_small';
    else {
      const ink = inkOf(el);
      if (!ink) reason = 'unknown_colour';
      else if (ink[3] < minOpacity) reason = 'transparent_text';
      else reason = clipOf(el) ? '' : 'clipped';
    }
    elementReasons.set(el, reason);
    return reason;
  };
  const scrollToSee = (y) => {
    const at = scrollY, height = innerHeight;
    // Kept in the middle half of the viewport, away from what a design fixes at its top or foot.
    if (y < at + height / 4 || y > at + (height * 3) / 4) window.scrollTo(0, Math.max(0, y - height / 2));
    return scrollY;
  };
  const IMAGES = new Set(['img', 'svg', 'canvas', 'video', 'object', 'embed', 'iframe', 'input']);
  const painted = (el) => {
    if (IMAGES.has(el.localName.toLowerCase())) return 'image';
    const s = style(el);
    if (s.backgroundImage !== 'none') return 'image';
    const bg = rgba(s.backgroundColor);
    return bg && bg[3] >= 0.99 ? bg : undefined;
  };
  // What lies at a point of the text: 'covered', or the background colour under it (white paper).
  const atPoint = (el, x, y, ink) => {
    const at = scrollToSee(y);
    const stack = document.elementsFromPoint(x, y - at);
    let below = false;
    for (const hit of stack) {
      if (!below) {
        if (hit === el || hit.contains(el)) below = true;
        else if (el.contains(hit)) continue;
        else if (opacity(hit) >= 0.99 && painted(hit)) return 'covered';
        if (!below) continue;
      }
      const paint = painted(hit);
      if (paint === 'image') return '';
      if (paint) return contrast(paint, ink) < minContrast ? 'same_colour_as_background' : '';
    }
    return contrast([255, 255, 255], ink) < minContrast ? 'same_colour_as_background' : '';
  };
  // Without hit tests: the background is the first of the element and its ancestors that paints one.
  const WHITE = [255, 255, 255, 1];
  const grounds = new Map();
  const ground = (el) => {
    if (!el || el.nodeType !== 1) return WHITE;
    let found = grounds.get(el);
    if (found === undefined) { const paint = painted(el); grounds.set(el, (found = paint === 'image' ? null : paint || ground(el.parentElement))); }
    return found;
  };
  const onAncestors = (el) => {
    const under = ground(el);
    return under && contrast(under, inkOf(el)) < minContrast ? 'same_colour_as_background' : '';
  };
  const range = document.createRange();
  const nodeReason = (node) => {
    const el = node.parentElement;
    let reason = el ? elementReason(el) : 'no_box';
    if (reason !== '') return reason;
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect(), dy = top();
    if (box.width === 0 && box.height === 0) return 'no_box';
    if (box.height < minPx) return 'too_small';
    if (box.right <= 0 || box.bottom + dy <= 0 || box.left >= pageWidth) return 'off_page';
    if (outside(box, dy, clipOf(el))) return 'clipped';
    if (!hitTest) return onAncestors(el);
    const ink = inkOf(el), y = box.top + dy + box.height / 2;
    for (const x of [box.left + Math.min(2, box.width / 2), box.left + box.width / 2, box.right - Math.min(2, box.width / 2)]) {
      reason = atPoint(el, Math.max(0, Math.min(x, pageWidth - 1)), y, ink);
      if (reason) return reason;
    }
    return '';
  };
  const firstNode = (offset) => {
    let low = 0, high = starts.length - 1;
    while (low < high) { const mid = (low + high + 1) >> 1; if (starts[mid] <= offset) low = mid; else high = mid - 1; }
    return low;
  };
  const drawingReason = (d) => {
    const found = paths.get(d);
    if (!found) return 'missing';
    let first = '';
    for (const path of found) {
      const svg = path.ownerSVGElement || path;
      let reason = elementReason(path);
      if (!reason) {
        const box = svg.getBoundingClientRect(), dy = top();
        if (box.width < minQrPx || box.height < minQrPx) reason = 'too_small';
        else if (box.right <= 0 || box.bottom + dy <= 0 || box.left >= pageWidth) reason = 'off_page';
        else if (outside(box, dy, clipOf(path))) reason = 'clipped';
      }
      if (!reason) return '';
      first ||= reason;
    }
    return first;
  };
  // A fact counts at its first occurrence whose every text node is seen; a text node shared by
  // several facts (or occurrences) is judged once.
  const nodeReasons = new Map();
  const seen = (n) => { let reason = nodeReasons.get(n); if (reason === undefined) nodeReasons.set(n, (reason = nodeReason(nodes[n]))); return reason; };
  const wholeNodes = new Map();
  parts.forEach((part, n) => { const key = part.trim(); if (key !== '' && !wholeNodes.has(key)) wholeNodes.set(key, n); });
  const unseen = [];
  facts.forEach((fact, index) => {
    if (fact.drawing !== undefined) {
      const reason = drawingReason(fact.drawing);
      if (reason) unseen.push([index, reason]);
      return;
    }
    // Most facts are the whole text of one node (a cell, a heading): that node first, by a lookup.
    const whole = wholeNodes.get(fact.text);
    if (whole !== undefined && seen(whole) === '') return;
    let first = '';
    for (let at = text.indexOf(fact.text); at !== -1; at = text.indexOf(fact.text, at + 1)) {
      let reason = '';
      for (let n = firstNode(at); n < nodes.length && starts[n] < at + fact.text.length; n++) {
        reason = seen(n);
        if (reason) break;
      }
      if (!reason) return;
      first ||= reason;
    }
    unseen.push([index, first || 'missing']);
  });
  if (hitTest) window.scrollTo(0, 0);
  return unseen;
}`;

/** The evaluation's expression for these facts on a page `pageWidthPx` wide. */
export function seeFactsExpression(facts: readonly PageFact[], pageWidthPx: number, hitTest: boolean): string {
  const args = [facts, pageWidthPx, MIN_FONT_PT * PX_PER_PT, MIN_OPACITY, MIN_CONTRAST, MIN_QR_MM * PX_PER_MM, hitTest];
  return `(${SEE_FACTS})(...${JSON.stringify(args)})`;
}

/** What each reason tells a designer, after "is on the page but". */
export const HIDING_REASONS: Record<string, string> = {
  display_none: 'is not displayed (display: none on it or an ancestor)',
  visibility_hidden: 'is invisible (visibility: hidden)',
  opacity_zero: `is transparent (opacity below ${MIN_OPACITY} on it or its ancestors)`,
  transparent_text: `its text colour is transparent (alpha below ${MIN_OPACITY})`,
  same_colour_as_background: `its text is the colour of the background under it (contrast below ${MIN_CONTRAST}:1)`,
  too_small: `its text is smaller than ${MIN_FONT_PT}pt, or a drawing smaller than ${MIN_QR_MM} mm`,
  no_box: 'has no box on the page (collapsed to nothing)',
  off_page: 'lies outside the page area',
  clipped: 'is clipped away (overflow, clip-path, mask or clip)',
  covered: 'is covered by a box painted over it',
};
