import { FONT_FORMATS, type FontFacts } from './fontFile.js';

/** A font put to PUT /v1/fonts as the store keeps it (src/themes/fontStore.ts). */
export interface StoredFont {
  facts: FontFacts;
  /** The file, base64: written into the @font-face rule of a render as it is. */
  base64: string;
}

/**
 * Writes the @font-face rules that put stored fonts (PUT /v1/fonts) into a page: the font's bytes
 * as a data: URL, the one way a font reaches the sandboxed renderer, which loads nothing from
 * anywhere (Chromium decodes a data: font at once, so the first print already uses it). Only
 * checked values are written: the family name against SAFE_FAMILY, the format from our own
 * table, the weight and style from the parsed font, the bytes as base64 checked once per id.
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
  const faceWeight = Math.round(weight ?? facts.weight);
  const faceStyle = (style ?? facts.style) === 'italic' ? 'italic' : 'normal';
  return `@font-face { font-family: "${family}"; font-weight: ${faceWeight}; font-style: ${faceStyle}; src: url(data:${format.mediaType};base64,${base64}) format("${format.css}"); }`;
}

/** The family name a theme's font id prints under: derived from the id, never from the font's own names. */
export function brandFamily(id: string): string {
  return `brand-${id.replace(/^sha256:/, '').slice(0, 16)}`;
}
