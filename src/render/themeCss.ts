import { fontFaceCss } from '../fonts/fontFace.js';
import { FONT_FAMILIES } from '../invoice/designFields.js';

/** brandFamily(id) of src/fonts/fontFace.ts: the only other family name a theme can write. */
const BRAND_FAMILY = /^brand-[0-9a-f]{16}$/;
import type { ThemeStyle } from './lookView.js';

/** Which custom property of the stylesheets each theme colour sets (styles/invoice.css :root). */
const COLOUR_PROPERTIES = {
  accent: '--accent',
  ink: '--ink',
  muted: '--muted',
  rule: '--rule',
  tint: '--accent-tint',
} as const;

/**
 * A theme's colours and font as CSS custom properties, appended after the stylesheets (and before
 * invoiceCss, so a request's accent_color still wins). Only checked values are written: colours
 * as #rrggbb (rebuilt from numbers by lookView.ts, checked again here) and a font family that is
 * one of FONT_FAMILIES, our own constants, or the name derived from a stored font's id with its
 * @font-face rule (fontFace.ts); a theme's text never reaches CSS.
 */
export function themeCss(style: ThemeStyle | null): string {
  if (style === null) return '';
  const declarations: string[] = [];
  for (const [name, property] of Object.entries(COLOUR_PROPERTIES) as [keyof typeof COLOUR_PROPERTIES, string][]) {
    const colour = style.colors[name];
    if (colour === undefined) continue;
    if (!/^#[0-9a-f]{6}$/.test(colour)) throw new Error(`theme colour ${name} must be #rrggbb`);
    declarations.push(`${property}: ${colour};`);
  }
  for (const [family, property] of [
    [style.font, '--font-face'],
    [style.headingFont, '--font-heading'],
  ] as const) {
    if (family === null) continue;
    if (!(FONT_FAMILIES as readonly string[]).includes(family) && !BRAND_FAMILY.test(family))
      throw new Error('theme font is neither on the allow-list nor a stored font');
    declarations.push(`${property}: "${family}";`);
  }
  // The stored fonts' @font-face rules (fontFace.ts writes only checked values).
  const faces = style.faces.length > 0 ? `${fontFaceCss(style.faces)}\n` : '';
  return declarations.length === 0 && faces === ''
    ? ''
    : `\n/* This invoice's theme (src/render/themeCss.ts). */\n${faces}:root { ${declarations.join(' ')} }\n`;
}
