/**
 * Stored fonts reach a render page once, not on every render. A page's @font-face rule names a
 * font by a URL on FONT_ORIGIN (fontFace.ts); the render page answers that URL from the bytes
 * registered here (src/render/lockDownPage.ts), with a year-long immutable cache header, so
 * Chromium keeps the decoded, sanitised font in its memory cache and later renders on that page
 * ask for nothing. Sent as a data: URL in the HTML instead, a 589 KB font made every render parse
 * and sanitise it again: 1.6–2.6× the time of a render in an installed font (docs/designs.md).
 *
 * `.invalid` is reserved (RFC 2606): the name never resolves, and the page is offline besides;
 * only the request interception of the page ever answers it, from memory. No file, no network.
 */
export const FONT_ORIGIN = 'https://font.invalid/';

export interface ServedFont {
  body: Buffer;
  mediaType: string;
}

/** The path of a font's URL: the 64 hex digits of its id (the SHA-256 of its bytes). */
const FONT_PATH = /^[0-9a-f]{64}$/;
/**
 * Fonts registered recently, the least recent dropped first. A font is registered when a page's
 * CSS is written and asked for by that render moments later, so this need hold only the fonts
 * of the renders under way (a few); 32 of at most 2 MiB bound it at 64 MiB.
 */
const SERVED_MAX = 32;
const served = new Map<string, ServedFont>();

/** Registers the font's bytes (decoded once per id) and answers the URL a @font-face rule names it by. */
export function fontUrl(hex: string, mediaType: string, base64: () => string): string {
  if (!FONT_PATH.test(hex)) throw new Error('a font URL takes the 64 hex digits of a font id');
  const known = served.get(hex);
  served.delete(hex);
  served.set(hex, known ?? { body: Buffer.from(base64(), 'base64'), mediaType });
  if (served.size > SERVED_MAX) served.delete(served.keys().next().value!);
  return `${FONT_ORIGIN}${hex}`;
}

/** The font a page asks for at this URL, or undefined for any URL that is not a registered font's. */
export function servedFont(url: string): ServedFont | undefined {
  if (!url.startsWith(FONT_ORIGIN)) return undefined;
  const hex = url.slice(FONT_ORIGIN.length);
  return FONT_PATH.test(hex) ? served.get(hex) : undefined;
}
