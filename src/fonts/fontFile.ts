import { createHash } from 'node:crypto';
import * as fontkit from 'fontkit';
import { InputRejected, rejected, type Issue } from '../errors.js';

/**
 * Reads an uploaded font file (PUT /v1/fonts) with fontkit, a maintained font engine, never by
 * hand: what it is, its names, weight and style, and whether this service may use it. What it
 * refuses is a 400 `font_invalid` whose one issue (path "font") says why. The sandboxed Chromium
 * sanitises the same bytes again when they are stored (src/render/fontCheck.ts): both must accept
 * a font.
 */

/** The containers accepted, by their first four bytes. */
export const FONT_FORMATS = {
  truetype: { mediaType: 'font/ttf', css: 'truetype' },
  opentype: { mediaType: 'font/otf', css: 'opentype' },
  woff: { mediaType: 'font/woff', css: 'woff' },
  woff2: { mediaType: 'font/woff2', css: 'woff2' },
} as const;
type FontFormat = keyof typeof FONT_FORMATS;

/** What the service learnt from a font file; the answer of PUT /v1/fonts without the bytes. */
export interface FontFacts {
  /** "sha256:" and the SHA-256 of the file's bytes: the same file, the same id. */
  id: string;
  /** The typographic family (name ID 16, else 1) as the font names itself; shown, never put in CSS. */
  family: string;
  /** The face within the family (name ID 17, else 2), e.g. "Bold Italic". */
  subfamily: string;
  postscript_name: string | null;
  style: 'normal' | 'italic';
  /** OS/2 usWeightClass, 1–1000 (400 regular, 700 bold). */
  weight: number;
  format: FontFormat;
  bytes: number;
  glyphs: number;
  /** How many Unicode characters the font maps; others fall back to the service's fonts. */
  characters: number;
}

const SIGNATURES: Record<string, FontFormat | 'collection'> = {
  '00010000': 'truetype',
  '74727565': 'truetype', // 'true' (old Apple TrueType)
  '4f54544f': 'opentype', // 'OTTO' (CFF outlines)
  '774f4646': 'woff', // 'wOFF'
  '774f4632': 'woff2', // 'wOF2'
  '74746366': 'collection', // 'ttcf'
};

/** The facts of a font this service can use, or a 400 saying why it cannot. */
export function readFontFile(bytes: Uint8Array): FontFacts {
  const signature = Buffer.from(bytes.subarray(0, 4)).toString('hex');
  const kind = bytes.length >= 12 ? SIGNATURES[signature] : undefined;
  if (kind === undefined)
    throw refused('not_a_font', 'is not a TrueType, OpenType, WOFF or WOFF2 font file (its first bytes say otherwise)');
  if (kind === 'collection')
    throw refused(
      'font_collection',
      'is a font collection (.ttc/.otc); upload each face as its own TTF, OTF, WOFF or WOFF2 file',
    );
  let font: fontkit.Font;
  try {
    const parsed = fontkit.create(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    if ('fonts' in parsed) throw new Error('a collection');
    font = parsed;
    checkTablesInside(font, bytes.length);
    return factsOf(font, kind, bytes);
  } catch (error) {
    if (error instanceof InputRejected) throw error;
    throw refused('unreadable_font', `could not be read as a ${kind} font (truncated or damaged: ${String(error)})`);
  }
}

function factsOf(font: fontkit.Font, format: FontFormat, bytes: Uint8Array): FontFacts {
  if (Object.keys(font.variationAxes ?? {}).length > 0)
    throw refused(
      'variable_font',
      `is a variable font (axes ${Object.keys(font.variationAxes).join(', ')}); upload a static instance of each weight you use`,
    );
  const os2 = font['OS/2'];
  if (os2 === undefined) throw refused('unreadable_font', 'has no OS/2 table (weight, style and licence are unknown)');
  const { noEmbedding, viewOnly } = os2.fsType;
  const editable = (os2.fsType as { editable?: boolean }).editable === true;
  if (noEmbedding && !viewOnly && !editable)
    throw refused(
      'embedding_restricted',
      "has the 'Restricted License embedding' permission (OS/2 fsType): its licence forbids embedding it in a PDF",
    );
  // Reading the character map and the glyph count touches the cmap, maxp and hmtx tables: a
  // damaged file fails here rather than in a render.
  const characters = font.characterSet.length;
  if (characters === 0 || !font.hasGlyphForCodePoint(0x20))
    throw refused('no_characters', 'maps no characters (no usable Unicode cmap with at least the space)');
  return {
    id: fontId(bytes),
    family: (font.getName('preferredFamily') ?? font.familyName ?? '').trim() || 'Unnamed',
    subfamily: (font.getName('preferredSubfamily') ?? font.subfamilyName ?? '').trim() || 'Regular',
    postscript_name: font.postscriptName,
    style: os2.fsSelection.italic || os2.fsSelection.oblique || font.head.macStyle.italic ? 'italic' : 'normal',
    weight: Math.min(1000, Math.max(1, os2.usWeightClass || 400)),
    format,
    bytes: bytes.length,
    glyphs: font.numGlyphs,
    characters,
  };
}

/** A TrueType/OpenType table that lies past the end of the file: the upload was cut short. */
function checkTablesInside(font: fontkit.Font, size: number): void {
  for (const table of Object.values(font.directory.tables)) {
    const end = table.offset + (table.compLength ?? table.length);
    // WOFF2 tables sit in one compressed stream (offset 0); its decompression fails when truncated.
    if (font.type !== 'WOFF2' && end > size)
      throw refused('truncated_font', `is truncated: its ${table.tag.trim()} table ends past the end of the file`);
  }
}

function fontId(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

function refused(code: string, message: string): ReturnType<typeof rejected> {
  const issue: Issue = { path: 'font', code, message };
  return rejected('font_invalid', `The font file ${message}.`, [issue]);
}
