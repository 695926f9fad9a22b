import { formatXref, objectRange, objectText, PdfLayoutError, readPdfLayout, trailerRef } from './pdfXref.js';

/**
 * The document information of an invoice PDF (docs/rendering.md, Determinism). Chromium writes Title
 * from <title> but sets no Author, stamps CreationDate/ModDate with the wall clock and puts its
 * user agent in Creator, so the same request would give different bytes every time. We replace
 * Chromium's Info dictionary with ours and shift the byte offsets after it: a few lines over the
 * one classic xref table Chromium writes (pdfXref.ts), no dependency, and the output stays a
 * plain single-revision PDF (an incremental update would keep the old wall-clock dates inside).
 */
export interface PdfInfo {
  title: string;
  author: string;
  /** YYYY-MM-DD; written as midnight UTC for both CreationDate and ModDate. */
  date: string;
  creator: string;
}

export function setPdfInfo(pdf: Buffer, info: PdfInfo): Buffer {
  const layout = readPdfLayout(pdf);
  const infoNumber = trailerRef(layout, 'Info');
  const old = objectRange(pdf, layout, infoNumber);
  const producer = /\/Producer\s*(\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>)/.exec(objectText(pdf, layout, infoNumber))?.[1];
  const date = pdfDate(info.date);
  const dictionary = [
    `/Title ${pdfTextString(info.title)}`,
    `/Author ${pdfTextString(info.author)}`,
    `/Creator ${pdfTextString(info.creator)}`,
    // Skia/PDF and its milestone: true, useful when a PDF looks odd, and stable within a release.
    ...(producer ? [`/Producer ${producer}`] : []),
    `/CreationDate ${date}`,
    `/ModDate ${date}`,
  ].join('\n');
  const replacement = Buffer.from(`${infoNumber} 0 obj\n<<${dictionary}>>\nendobj`, 'latin1');
  const shift = replacement.length - (old.end - old.start);

  const entries = layout.entries.map((entry) =>
    entry.inUse && entry.offset > old.start ? { ...entry, offset: entry.offset + shift } : entry,
  );
  const tail = `${formatXref(entries)}trailer\n${layout.trailer}\nstartxref\n${layout.xrefOffset + shift}\n%%EOF\n`;
  return Buffer.concat([
    pdf.subarray(0, old.start),
    replacement,
    pdf.subarray(old.end, layout.xrefOffset),
    Buffer.from(tail, 'latin1'),
  ]);
}

/** Number of pages, from the /Count of the page tree the catalog points to. */
export function pdfPageCount(pdf: Buffer): number {
  const layout = readPdfLayout(pdf);
  const catalog = objectText(pdf, layout, trailerRef(layout, 'Root'));
  const pagesRef = /\/Pages\s+(\d+)\s+0\s+R/.exec(catalog);
  if (!pagesRef) throw new PdfLayoutError('catalog has no /Pages');
  const count = /\/Count\s+(\d+)/.exec(objectText(pdf, layout, Number(pagesRef[1])));
  if (!count) throw new PdfLayoutError('page tree has no /Count');
  return Number(count[1]);
}

/**
 * A PDF text string as UTF-16BE hex with a byte-order mark: valid for any Unicode, and user text
 * can't end the string or inject PDF syntax, because only hex digits are written.
 */
export function pdfTextString(text: string): string {
  let hex = 'FEFF';
  for (let index = 0; index < text.length; index++) {
    hex += text.charCodeAt(index).toString(16).toUpperCase().padStart(4, '0');
  }
  return `<${hex}>`;
}

/** 2026-11-02 → (D:20261102000000+00'00'), the form Chromium itself writes. */
export function pdfDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) throw new RangeError(`not a YYYY-MM-DD date: ${isoDate}`);
  return `(D:${match[1]}${match[2]}${match[3]}000000+00'00')`;
}
