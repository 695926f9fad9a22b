import { FONT_FORMATS, type FontFacts } from './fontFile.js';
import { FONT_ORIGIN, fontUrl } from './servedFonts.js';

/** A font put to PUT /v1/fonts as the store keeps it (src/themes/fontStore.ts). */
export interface StoredFont {
  facts: FontFacts;
  /** The file, base64: given to a render page once (src/render/pageFonts.ts). */
  base64: string;
}

/**
 * Writes the @font-face rules that put stored fonts (PUT /v1/fonts) into a page: the font by a URL
 * of its id that is never fetched (servedFonts.ts). The renderer takes these rules out of the page
 * it prints and keeps the faces they declare loaded on its render page instead, from the bytes
 * (takeStoredFaces, src/render/pageFonts.ts), so a font is loaded, sanitised and shaped once per
 * page, not once per render. Only checked values
 * are written: the family name against SAFE_FAMILY, the format from our own table, the weight and
 * style from the parsed font, the URL from the id's hex digits; the base64 is checked once per id.
 *
 * Templates, themes and customer template packages all come here: a theme's fonts under the
 * names brandFamily() gives them (src/render/themeCss.ts), a package's under the family names
 * its CSS uses.
 */
export interface FontFaceSource {
  /** The font-family name the CSS refers to. */
  family: string;
  font: StoredFont;
  /** The face's font-weight and font-style; the font's own (its OS/2 table) when left out. */
  weight?: number;
  style?: 'normal' | 'italic';
}

/** A family name written into CSS as a quoted string: letters, digits, space, _ and -; nothing to escape. */
const SAFE_FAMILY = /^[A-Za-z][A-Za-z0-9 _-]{0,62}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const checkedIds = new Set<string>();

export function fontFaceCss(faces: readonly FontFaceSource[]): string {
  return faces.map(fontFaceRule).join('\n');
}

function fontFaceRule({ family, font, weight, style }: FontFaceSource): string {
  if (!SAFE_FAMILY.test(family)) throw new Error(`font family name ${JSON.stringify(family)} is not a safe CSS name`);
  const { facts, base64 } = font;
  if (!checkedIds.has(facts.id)) {
    if (!BASE64.test(base64)) throw new Error(`stored font ${facts.id} is not base64`);
    if (checkedIds.size > 1000) checkedIds.clear();
    checkedIds.add(facts.id);
  }
  const format = FONT_FORMATS[facts.format];
  const url = fontUrl(facts.id.replace(/^sha256:/, ''), { base64, mediaType: format.mediaType });
  const faceWeight = Math.round(weight ?? facts.weight);
  const faceStyle = (style ?? facts.style) === 'italic' ? 'italic' : 'normal';
  return `@font-face { font-family: "${family}"; font-weight: ${faceWeight}; font-style: ${faceStyle}; src: url("${url}") format("${format.css}"); }`;
}

/** A face a page declares with a rule of fontFaceRule's: the slot it fills and the URL of its font. */
export interface StoredFace {
  family: string;
  weight: number;
  style: 'normal' | 'italic';
  url: string;
}

/** fontFaceRule's output, exactly: anything else (a rule of a template's own CSS) is left alone. */
const STORED_FACE_RULE = new RegExp(
  String.raw`@font-face \{ font-family: "([A-Za-z][A-Za-z0-9 _-]{0,62})"; font-weight: (\d{1,4}); font-style: (normal|italic); src: url\("(` +
    FONT_ORIGIN.replace(/[.]/g, '\\.') +
    String.raw`[0-9a-f]{64})"\) format\("[a-z0-9]+"\); \}`,
  'g',
);

/**
 * The page without the rules fontFaceCss wrote, and the faces they declared: the renderer gives
 * its page those faces itself (src/render/pageFonts.ts). A rule that user text imitated cannot
 * match (the text is HTML-escaped: its quotes are entities), and if one did, it would name no
 * more than a registered font under a family, as a rule of its own could.
 */
export function takeStoredFaces(html: string): { html: string; faces: StoredFace[] } {
  if (!html.includes(FONT_ORIGIN)) return { html, faces: [] };
  const faces: StoredFace[] = [];
  const rest = html.replace(STORED_FACE_RULE, (_, family: string, weight: string, style: string, url: string) => {
    faces.push({ family, weight: Number(weight), style: style as StoredFace['style'], url });
    return '';
  });
  return { html: rest, faces };
}

/** The family name a theme's font id prints under: derived from the id, never from the font's own names. */
export function brandFamily(id: string): string {
  return `brand-${id.replace(/^sha256:/, '').slice(0, 16)}`;
}
