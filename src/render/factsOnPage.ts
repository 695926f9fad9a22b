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
  const SKIP = new Set(['HEAD', 'STYLE', 'SCRIPT', 'TEMPLATE', 'TITLE', 'NOSCRIPT']);
  const nodes = [], starts = [], paths = new Map();
  let text = '';
  const walk = (node) => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) {
        let part = child.data.replace(/[\s\u00a0\u202f]+/g, ' ');
        if (part[0] === ' ' && (text === '' || text[text.length - 1] === ' ')) part = part.slice(1);
        if (part === '') continue;
        starts.push(text.length); nodes.push(child); text += part;
        continue;
      }
      if (child.nodeType !== 1) continue;
      const tag = child.tagName.toUpperCase();
      if (SKIP.has(tag) || child.hasAttribute('hidden')) continue;
      if (tag === 'PATH' && child.hasAttribute('d')) {
        const d = child.getAttribute('d');
        if (!paths.has(d)) paths.set(d, []);
        paths.get(d).push(child);
      }
      walk(child);
    }
  };
  walk(document);

  const styles = new Map();
  const style = (el) => { let s = styles.get(el); if (!s) styles.set(el, (s = getComputedStyle(el))); return s; };
  let probe;
  const rgba = (colour) => {
    let m = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(colour);
    if (!m && (probe ??= document.createElement('canvas').getContext('2d'))) { probe.fillStyle = '#000'; probe.fillStyle = colour; const c = probe.fillStyle;
      m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/.exec(c);
      if (m) return [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16), 1];
      m = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(c); }
    return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : undefined;
  };
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
  // Boxes in the document's coordinates (the check scrolls to hit-test).
  const docBox = (r) => ({ left: r.left, right: r.right, top: r.top + scrollY, bottom: r.bottom + scrollY, width: r.width, height: r.height });
  const outside = (box, clip) => box.left < clip.left - 1 || box.right > clip.right + 1 || box.top < clip.top - 1 || box.bottom > clip.bottom + 1;
  const clips = new Map();
  // The rectangle an element's ancestors (and itself) let show; null when a clip cannot be read.
  const clipOf = (el) => {
    if (!el || el.nodeType !== 1) return { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
    if (clips.has(el)) return clips.get(el);
    const s = style(el);
    let clip = clipOf(el.parentElement);
    if (clip && ((s.clipPath && s.clipPath !== 'none') || (s.maskImage && s.maskImage !== 'none') ||
        (s.webkitMaskImage && s.webkitMaskImage !== 'none') || (s.clip && s.clip !== 'auto'))) clip = null;
    if (clip && (s.overflowX !== 'visible' || s.overflowY !== 'visible' || (s.contain && /paint|strict|content/.test(s.contain)))) {
      const r = docBox(el.getBoundingClientRect());
      clip = { left: Math.max(clip.left, r.left), top: Math.max(clip.top, r.top), right: Math.min(clip.right, r.right), bottom: Math.min(clip.bottom, r.bottom) };
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
  const elementReasons = new Map();
  const elementReason = (el) => {
    let reason = elementReasons.get(el);
    if (reason !== undefined) return reason;
    const s = style(el);
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) reason = why(el);
    else if (opacity(el) < minOpacity) reason = 'opacity_zero';
    else if (parseFloat(s.fontSize) < minPx) reason = 'too_small';
    else {
      const ink = rgba(s.webkitTextFillColor || s.color), colour = rgba(s.color);
      if (!ink || !colour) reason = 'unknown_colour';
      else if (ink[3] < minOpacity) reason = 'transparent_text';
      else reason = clipOf(el) ? '' : 'clipped';
    }
    elementReasons.set(el, reason);
    return reason;
  };

  const scrollToSee = (y) => {
    const top = scrollY, height = innerHeight;
    // Kept in the middle half of the viewport, away from what a design fixes at its top or foot.
    if (y < top + height / 4 || y > top + (height * 3) / 4) window.scrollTo(0, Math.max(0, y - height / 2));
    return scrollY;
  };
  const painted = (el) => {
    const s = style(el), tag = el.tagName.toUpperCase();
    if (['IMG', 'SVG', 'CANVAS', 'VIDEO', 'OBJECT', 'EMBED', 'IFRAME', 'INPUT'].includes(tag)) return 'image';
    if (s.backgroundImage !== 'none') return 'image';
    const bg = rgba(s.backgroundColor);
    return bg && bg[3] >= 0.99 ? bg : undefined;
  };
  // What lies at a point of the text: 'covered', or the background colour under it (white paper).
  const atPoint = (el, x, y, ink) => {
    const top = scrollToSee(y);
    const stack = document.elementsFromPoint(x, y - top);
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
  const grounds = new Map();
  const ground = (el) => {
    if (!el || el.nodeType !== 1) return [255, 255, 255, 1];
    let found = grounds.get(el);
    if (found === undefined) { const paint = painted(el); grounds.set(el, (found = paint === 'image' ? null : paint || ground(el.parentElement))); }
    return found;
  };
  const onAncestors = (el) => {
    const under = ground(el), ink = rgba(style(el).webkitTextFillColor || style(el).color);
    return under && contrast(under, ink) < minContrast ? 'same_colour_as_background' : '';
  };
  const nodeReasons = new Map();
  const nodeReason = (node) => {
    let reason = nodeReasons.get(node);
    if (reason !== undefined) return reason;
    const el = node.parentElement;
    reason = el ? elementReason(el) : 'no_box';
    if (reason === '') {
      const range = document.createRange();
      range.selectNodeContents(node);
      const box = docBox(range.getBoundingClientRect());
      if (box.width === 0 && box.height === 0) reason = 'no_box';
      else if (box.height < minPx) reason = 'too_small';
      else if (box.right <= 0 || box.bottom <= 0 || box.left >= pageWidth) reason = 'off_page';
      else if (outside(box, clipOf(el))) reason = 'clipped';
      else if (!hitTest) reason = onAncestors(el);
      else {
        const ink = rgba(style(el).webkitTextFillColor || style(el).color);
        const y = box.top + (box.bottom - box.top) / 2;
        for (const x of [box.left + Math.min(2, box.width / 2), box.left + box.width / 2, box.right - Math.min(2, box.width / 2)]) {
          reason = atPoint(el, Math.max(0, Math.min(x, pageWidth - 1)), y, ink);
          if (reason) break;
        }
      }
    }
    nodeReasons.set(node, reason);
    return reason;
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
        const box = docBox(svg.getBoundingClientRect());
        if (box.width < minQrPx || box.height < minQrPx) reason = 'too_small';
        else if (box.right <= 0 || box.bottom <= 0 || box.left >= pageWidth) reason = 'off_page';
        else if (outside(box, clipOf(path))) reason = 'clipped';
      }
      if (!reason) return '';
      first ||= reason;
    }
    return first;
  };
  const unseen = [];
  facts.forEach((fact, index) => {
    if (fact.drawing !== undefined) {
      const reason = drawingReason(fact.drawing);
      if (reason) unseen.push([index, reason]);
      return;
    }
    let first = '';
    for (let at = text.indexOf(fact.text); at !== -1; at = text.indexOf(fact.text, at + 1)) {
      let reason = '';
      for (let n = firstNode(at); n < nodes.length && starts[n] < at + fact.text.length; n++) {
        reason = nodeReason(nodes[n]);
        if (reason) break;
      }
      if (!reason) return;
      first ||= reason;
    }
    unseen.push([index, first || 'missing']);
  });
  window.scrollTo(0, 0);
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
