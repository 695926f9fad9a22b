import { FONT_FAMILIES } from '../invoice/designFields.js';
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
 * one of FONT_FAMILIES, our own constants; a theme's text never reaches CSS.
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
  if (style.font !== null) {
    if (!(FONT_FAMILIES as readonly string[]).includes(style.font))
      throw new Error('theme font is not on the allow-list');
    declarations.push(`--font-face: "${style.font}";`);
  }
  return declarations.length === 0
    ? ''
    : `\n/* This invoice's theme (src/render/themeCss.ts). */\n:root { ${declarations.join(' ')} }\n`;
}
