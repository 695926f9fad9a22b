import { readFileSync } from 'node:fs';
import subsetFont from 'subset-font';

/**
 * Brand fonts for the tests, made at set-up from fonts the service installs (scripts/setup.mjs),
 * so no font file is committed: a Latin-only cut of Noto Serif (Basic Latin, Latin-1, Latin
 * Extended-A, € and typographic quotes: no Arabic, Hebrew, Devanagari, CJK, ₹ or ₪), written by
 * HarfBuzz's subsetter (subset-font) as TTF, WOFF or WOFF2. It keeps Noto Serif's names ("Noto
 * Serif"), which no CSS of the service asks for by that name in a theme with a font id.
 */
const NOTO_SERIF = '/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf';
const NOTO_SERIF_BOLD = '/usr/share/fonts/truetype/noto/NotoSerif-Bold.ttf';
/** A font of about 340 KB, as brand fonts are (DejaVu Sans Mono, fonts-dejavu-core). */
export const LARGE_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf';

const LATIN = [
  ...range(0x20, 0x7e),
  ...range(0xa0, 0x17f),
  ...[0x20ac, 0x2013, 0x2014, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2026],
]
  .map((code) => String.fromCodePoint(code))
  .join('');

const made = new Map<string, Promise<Buffer>>();

export function latinOnlyFont(
  format: 'truetype' | 'woff' | 'woff2' = 'truetype',
  weight: 'regular' | 'bold' = 'regular',
): Promise<Buffer> {
  const key = `${format}/${weight}`;
  let font = made.get(key);
  if (font === undefined) {
    font = subsetFont(readFileSync(weight === 'bold' ? NOTO_SERIF_BOLD : NOTO_SERIF), LATIN, { targetFormat: format });
    made.set(key, font);
  }
  return font;
}

/** The characters latinOnlyFont maps (for asserting what it lacks). */
export const LATIN_ONLY_CHARACTERS = new Set([...LATIN].map((char) => char.codePointAt(0)!));

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}
