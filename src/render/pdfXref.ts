/**
 * Reads the cross-reference table of a PDF as Chromium (Skia) writes it: one classic `xref`
 * section with a single subsection from object 0, fixed 20-byte entries, a trailer dictionary,
 * `startxref`, `%%EOF`; no incremental updates, no cross-reference streams, no encryption. That
 * is all pdfInfo.ts needs to rewrite the document information dictionary exactly. Anything else
 * is refused with an error naming what was found, so a Chromium upgrade that changes the layout
 * fails loudly in the tests instead of producing a corrupt file.
 */
export interface XrefEntry {
  offset: number;
  generation: number;
  inUse: boolean;
}

export interface PdfLayout {
  /** Byte offset of the `xref` keyword. */
  xrefOffset: number;
  entries: XrefEntry[];
  /** The trailer dictionary text, from `<<` to `>>`. */
  trailer: string;
}

const ENTRY_LENGTH = 20;
const ENTRY = /^(\d{10}) (\d{5}) ([nf])(?: \r| \n|\r\n)$/;
const STARTXREF = /^startxref\s+(\d+)\s+%%EOF\s*$/;

export class PdfLayoutError extends Error {
  constructor(message: string) {
    super(`unexpected PDF layout: ${message}`);
    this.name = 'PdfLayoutError';
  }
}

export function readPdfLayout(pdf: Buffer): PdfLayout {
  const keyword = pdf.lastIndexOf('startxref', undefined, 'latin1');
  const start = keyword < 0 ? null : STARTXREF.exec(pdf.toString('latin1', keyword));
  if (!start) throw new PdfLayoutError('no startxref/%%EOF at the end');
  const xrefOffset = Number(start[1]);
  if (xrefOffset <= 0 || xrefOffset >= keyword) throw new PdfLayoutError(`startxref ${xrefOffset} out of range`);

  // The tail is small (a few hundred bytes plus 20 per object); read it as text.
  const section = pdf.toString('latin1', xrefOffset, keyword);
  const header = /^xref\r?\n0 (\d+)\r?\n/.exec(section);
  if (!header) throw new PdfLayoutError('no classic xref table with one subsection from object 0 at startxref');
  const count = Number(header[1]);
  const entries: XrefEntry[] = [];
  let at = header[0].length;
  for (let index = 0; index < count; index++, at += ENTRY_LENGTH) {
    const entry = ENTRY.exec(section.slice(at, at + ENTRY_LENGTH));
    if (!entry) throw new PdfLayoutError(`malformed xref entry ${index}`);
    entries.push({ offset: Number(entry[1]), generation: Number(entry[2]), inUse: entry[3] === 'n' });
  }
  const trailerMatch = /^\s*trailer\s*(<<[\s\S]*>>)\s*$/.exec(section.slice(at));
  if (!trailerMatch?.[1]) throw new PdfLayoutError('no trailer dictionary after the xref table');
  const trailer = trailerMatch[1];
  for (const key of ['/Prev', '/Encrypt', '/XRefStm']) {
    if (trailer.includes(key)) throw new PdfLayoutError(`trailer has ${key}`);
  }
  return { xrefOffset, entries, trailer };
}

/** Formats an xref table for `entries`, byte-compatible with what readPdfLayout accepts. */
export function formatXref(entries: readonly XrefEntry[]): string {
  const lines = entries.map(
    (entry) =>
      `${String(entry.offset).padStart(10, '0')} ${String(entry.generation).padStart(5, '0')} ${entry.inUse ? 'n' : 'f'} \n`,
  );
  return `xref\n0 ${entries.length}\n${lines.join('')}`;
}

/** Object number referenced by a key of the trailer (`/Root 13 0 R` → 13). */
export function trailerRef(layout: PdfLayout, key: 'Root' | 'Info'): number {
  const match = new RegExp(`/${key}\\s+(\\d+)\\s+0\\s+R`).exec(layout.trailer);
  if (!match) throw new PdfLayoutError(`trailer has no /${key}`);
  return Number(match[1]);
}

/** Byte range [start, end) of `n 0 obj ... endobj`, for objects without a stream (dictionaries). */
export function objectRange(pdf: Buffer, layout: PdfLayout, objectNumber: number): { start: number; end: number } {
  const entry = layout.entries[objectNumber];
  if (!entry?.inUse) throw new PdfLayoutError(`object ${objectNumber} is not in the xref table`);
  const start = entry.offset;
  const opening = `${objectNumber} ${entry.generation} obj`;
  if (pdf.toString('latin1', start, start + opening.length) !== opening) {
    throw new PdfLayoutError(`xref offset of object ${objectNumber} does not point at "${opening}"`);
  }
  const endobj = pdf.indexOf('endobj', start, 'latin1');
  if (endobj < 0) throw new PdfLayoutError(`object ${objectNumber} has no endobj`);
  return { start, end: endobj + 'endobj'.length };
}

/** The text of a small, uncompressed object (a dictionary): `<<...>>` without the obj/endobj frame. */
export function objectText(pdf: Buffer, layout: PdfLayout, objectNumber: number): string {
  const { start, end } = objectRange(pdf, layout, objectNumber);
  return pdf
    .toString('latin1', start, end)
    .replace(/^\d+ \d+ obj\s*/, '')
    .replace(/\s*endobj$/, '');
}
