/**
 * Stored fonts reach a render page once, not with every render. A page's @font-face rule names a
 * stored font by a URL of its id (fontFace.ts); the renderer takes those rules out of the page it
 * prints and gives its render page the fonts' bytes itself, once per page (src/render/pageFonts.ts),
 * from what is registered here. Sent as a data: URL in the HTML instead, a 589 KB font made every
 * render parse and sanitise it again: 1.6–2.6× the time of a render in an installed font.
 *
 * The URL is a name, never fetched: `.invalid` is reserved (RFC 2606) and the render page aborts
 * every request (src/render/lockDownPage.ts).
 */
export const FONT_ORIGIN = 'https://font.invalid/';

export interface RegisteredFont {
  base64: string;
  mediaType: string;
}

/** The path of a font's URL: the 64 hex digits of its id (the SHA-256 of its bytes). */
const FONT_PATH = /^[0-9a-f]{64}$/;
/**
 * Fonts registered recently, the least recent dropped first. A font is registered when a page's
 * CSS is written and given to the render page moments later, so this need hold only the fonts of
 * the renders under way (a few); the strings are those the font store keeps anyway.
 */
const REGISTERED_MAX = 32;
const registered = new Map<string, RegisteredFont>();

/** Registers a font's bytes (base64, checked by the caller) and answers the URL a @font-face rule names it by. */
export function fontUrl(hex: string, font: RegisteredFont): string {
  if (!FONT_PATH.test(hex)) throw new Error('a font URL takes the 64 hex digits of a font id');
  registered.delete(hex);
  registered.set(hex, font);
  if (registered.size > REGISTERED_MAX) registered.delete(registered.keys().next().value!);
  return `${FONT_ORIGIN}${hex}`;
}

/** The font registered under this URL, or undefined for any other URL. */
export function registeredFont(url: string): RegisteredFont | undefined {
  if (!url.startsWith(FONT_ORIGIN)) return undefined;
  const hex = url.slice(FONT_ORIGIN.length);
  return FONT_PATH.test(hex) ? registered.get(hex) : undefined;
}
