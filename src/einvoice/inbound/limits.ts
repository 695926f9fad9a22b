/**
 * The bounds on an inbound e-invoice (docs/e-invoices-inbound.md lists them). Each is far above
 * what a real invoice needs (the largest corpus file is 280 KB of PDF, 60 KB of XML, 8 levels of
 * nesting below the root) and low enough that a hostile document is refused in milliseconds.
 */
import { rejected } from '../../errors.js';
import type { PdfScanBounds } from '../../pdf/pdfEmbeddedFiles.js';
import type { XmlBounds } from '../../xml/xmlTree.js';

export const INBOUND_LIMITS = {
  /** Request body as sent (XML or PDF), before anything is read. */
  bodyBytes: 8 * 1024 * 1024,
  /** Characters of XML, as sent or as extracted from a PDF. */
  xmlChars: 4 * 1024 * 1024,
  /** Element nesting; CII and UBL need about 10, an SBDH envelope adds 2. */
  xmlDepth: 48,
  /** Elements in one document. */
  xmlElements: 200_000,
  /** Invoice lines (BG-25). */
  lines: 2_000,
  /** Decompressed bytes of one PDF stream looked at for the embedded XML. */
  pdfStreamBytes: 4 * 1024 * 1024,
  /** PDF objects indexed (outside and inside object streams) before giving up. */
  pdfStreams: 20_000,
  /** Decompressed bytes of all PDF streams together (object streams and embedded files). */
  pdfInflatedBytes: 32 * 1024 * 1024,
  /** Attachments (BG-24) listed; their content is never decoded or rendered. */
  attachments: 200,
} as const;

/** The XML reader's bounds for an inbound e-invoice; a document over a size bound is einvoice_too_large. */
export const INBOUND_XML_BOUNDS: XmlBounds = {
  maxChars: INBOUND_LIMITS.xmlChars,
  maxDepth: INBOUND_LIMITS.xmlDepth,
  maxElements: INBOUND_LIMITS.xmlElements,
  tooLarge: (message) => rejected('einvoice_too_large', message, [{ path: '', code: 'einvoice_too_large', message }]),
};

export const INBOUND_PDF_BOUNDS: PdfScanBounds = {
  maxStreams: INBOUND_LIMITS.pdfStreams,
  maxStreamBytes: INBOUND_LIMITS.pdfStreamBytes,
  maxInflatedBytes: INBOUND_LIMITS.pdfInflatedBytes,
};
