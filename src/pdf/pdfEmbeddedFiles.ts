import { rejected } from '../errors.js';
import { PdfObjects, type PdfScanBounds } from './pdfObjects.js';
import { isDict, nameOf, type PdfDict, type PdfValue } from './pdfValues.js';

export type { PdfScanBounds } from './pdfObjects.js';

const refuse = (code: string, message: string) => rejected(code, message, [{ path: '', code, message }]);

const notAPdf = () => refuse('pdf_malformed', 'The body is labelled application/pdf but does not start with %PDF-.');

const encryptedPdf = () => refuse('pdf_encrypted', 'The PDF is encrypted; its embedded e-invoice cannot be read.');

/** Name tree nodes walked (ISO 32000-1 §7.9.6), and how deep. */
const MAX_TREE_NODES = 10_000;
const MAX_TREE_DEPTH = 16;

/**
 * The embedded files of a PDF (a Factur-X / ZUGFeRD / XRechnung hybrid carries its XML as one),
 * read as the standard defines them: the file specifications of the catalog's
 * /Names /EmbeddedFiles name tree and of its /AF associated files (PDF/A-3), each file's stream
 * taken from /EF's /UF or /F whatever the stream's own dictionary says; then, for files a
 * producer left out of both, any other file specification with an /EF, and any stream marked
 * /Type /EmbeddedFile. Objects inside object streams and files with a compressed xref stream are
 * read (pdfObjects.ts). Unfiltered or FlateDecode streams, each inflated within the bounds.
 * Nothing in the PDF is run, rendered or followed (no JavaScript, no actions, no external files).
 */
export function pdfEmbeddedFiles(pdf: Uint8Array, bounds: PdfScanBounds): Buffer[] {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  if (bytes.subarray(0, 1024).indexOf('%PDF-') < 0) throw notAPdf();
  // latin1 maps every byte to one character, so offsets in the text are offsets in the bytes.
  const text = bytes.toString('latin1');
  if (/\/Encrypt[\s/<\d]/.test(text)) throw encryptedPdf();
  const objects = new PdfObjects(text, bytes, bounds);
  const streams = new Set<number>();
  const catalog = objects.catalog();
  if (catalog) {
    const names = objects.dict(catalog.entries.get('Names'));
    for (const spec of nameTreeValues(objects, names?.entries.get('EmbeddedFiles'))) addSpec(objects, spec, streams);
    for (const spec of arrayOf(objects, catalog.entries.get('AF'))) addSpec(objects, spec, streams);
  }
  for (const num of objects.objectsMatching(/\/EF\b|\/EmbeddedFile\b/)) {
    const value = objects.get(num);
    if (!isDict(value)) continue;
    if (value.entries.has('EF')) addSpec(objects, value, streams);
    else if (nameOf(value.entries.get('Type')) === 'EmbeddedFile') streams.add(num);
  }
  const files: Buffer[] = [];
  for (const num of streams) {
    const stream = objects.stream(num);
    if (stream) files.push(stream.data);
  }
  return files;
}

/** A file specification's embedded stream: /EF /UF, else /EF /F (either may be the only one). */
function addSpec(objects: PdfObjects, spec: PdfValue | undefined, streams: Set<number>): void {
  const ef = objects.dict(objects.dict(spec)?.entries.get('EF'));
  for (const key of ['UF', 'F']) {
    const target = ef?.entries.get(key);
    if (typeof target === 'object' && target !== null && target.kind === 'ref') streams.add(target.num);
  }
}

/** The values of a name tree: its /Names pairs and, through /Kids, its descendants', in order. */
function nameTreeValues(objects: PdfObjects, root: PdfValue | undefined): PdfValue[] {
  const values: PdfValue[] = [];
  const seen = new Set<PdfDict>();
  const walk = (value: PdfValue | undefined, depth: number) => {
    const node = objects.dict(value);
    if (!node || seen.has(node) || depth > MAX_TREE_DEPTH || seen.size >= MAX_TREE_NODES) return;
    seen.add(node);
    const pairs = arrayOf(objects, node.entries.get('Names'));
    for (let at = 1; at < pairs.length; at += 2) values.push(pairs[at]!);
    for (const kid of arrayOf(objects, node.entries.get('Kids'))) walk(kid, depth + 1);
  };
  walk(root, 0);
  return values;
}

function arrayOf(objects: PdfObjects, value: PdfValue | undefined): PdfValue[] {
  const resolved = objects.resolve(value);
  if (typeof resolved === 'object' && resolved !== null && resolved.kind === 'array') return resolved.items;
  return isDict(resolved) ? [resolved] : [];
}
