import { constants, inflateSync } from 'node:zlib';
import { rejected } from '../errors.js';

/** How much of a PDF is looked at: streams seen, and bytes of one decompressed stream. */
export interface PdfScanBounds {
  maxStreams: number;
  maxStreamBytes: number;
}

const refuse = (code: string, message: string) => rejected(code, message, [{ path: '', code, message }]);

const notAPdf = () => refuse('pdf_malformed', 'The body is labelled application/pdf but does not start with %PDF-.');

const encryptedPdf = () => refuse('pdf_encrypted', 'The PDF is encrypted; its embedded e-invoice cannot be read.');

/**
 * The embedded files of a PDF (a Factur-X / ZUGFeRD / XRechnung hybrid carries its XML as one),
 * found by reading the file's bytes as data: every stream object whose dictionary says
 * /Type /EmbeddedFile, unfiltered or FlateDecode, inflated within `bounds.maxStreamBytes`.
 * Nothing in the PDF is run, rendered or followed (no JavaScript, no actions, no external file
 * specifications); object streams need no reading, as a stream is never inside one.
 */
export function pdfEmbeddedFiles(pdf: Uint8Array, bounds: PdfScanBounds): Buffer[] {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const start = bytes.subarray(0, 1024).indexOf('%PDF-');
  if (start < 0) throw notAPdf();
  // latin1 maps every byte to one character, so offsets in the text are offsets in the bytes.
  const text = bytes.toString('latin1');
  if (/\/Encrypt[\s/<\d]/.test(text)) throw encryptedPdf();
  const files: Buffer[] = [];
  const objects = /(\d+)\s+(\d+)\s+obj\s*<</g;
  let seen = 0;
  for (let match = objects.exec(text); match !== null; match = objects.exec(text)) {
    if (++seen > bounds.maxStreams) break;
    const dictStart = match.index + match[0].length - 2;
    const dictEnd = endOfDictionary(text, dictStart);
    if (dictEnd < 0) continue;
    const dict = text.slice(dictStart, dictEnd);
    const after = /^\s*stream(\r\n|\n|\r)/.exec(text.slice(dictEnd, dictEnd + 16));
    if (!after) continue;
    objects.lastIndex = dictEnd;
    if (!/\/Type\s*\/EmbeddedFile\b/.test(dict)) continue;
    const dataStart = dictEnd + after[0].length;
    const data = bytes.subarray(dataStart, dataStart + streamLength(text, dict, dataStart));
    const decoded = decode(dict, data, bounds.maxStreamBytes);
    if (decoded) files.push(decoded);
  }
  return files;
}

/** The offset just after the >> closing the dictionary opened at `from`, or -1. */
function endOfDictionary(text: string, from: number): number {
  let depth = 0;
  for (let at = from; at < text.length && at < from + 65_536; at++) {
    const char = text[at];
    if (char === '(') {
      // A literal string may hold unbalanced brackets: skip it (escapes and nesting honoured).
      let nesting = 1;
      for (at++; at < text.length && nesting > 0; at++) {
        if (text[at] === '\\') at++;
        else if (text[at] === '(') nesting++;
        else if (text[at] === ')') nesting--;
      }
      at--;
    } else if (char === '<' && text[at + 1] === '<') {
      depth++;
      at++;
    } else if (char === '>' && text[at + 1] === '>') {
      depth--;
      at++;
      if (depth === 0) return at + 1;
    }
  }
  return -1;
}

/** /Length as a number, or through its indirect object, else up to the endstream keyword. */
function streamLength(text: string, dict: string, dataStart: number): number {
  const direct = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
  if (direct) return Number(direct[1]);
  const indirect = /\/Length\s+(\d+)\s+(\d+)\s+R/.exec(dict);
  if (indirect) {
    const target = new RegExp(`(?:^|\\s)${indirect[1]}\\s+${indirect[2]}\\s+obj\\s*(\\d+)\\s*endobj`).exec(text);
    if (target) return Number(target[1]);
  }
  const end = text.indexOf('endstream', dataStart);
  return end < 0 ? 0 : end - dataStart;
}

function decode(dict: string, data: Buffer, maxBytes: number): Buffer | undefined {
  const filters = [
    ...(/\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict)?.[1] ?? '').matchAll(/\/([A-Za-z0-9]+)/g),
  ].map((filter) => filter[1]);
  if (filters.length === 0) return data.length <= maxBytes ? data : undefined;
  if (filters.length !== 1 || filters[0] !== 'FlateDecode' || /\/DecodeParms/.test(dict)) return undefined;
  try {
    return inflateSync(data, { maxOutputLength: maxBytes, finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    return undefined; // corrupt or beyond the limit: not an XML this service reads
  }
}
