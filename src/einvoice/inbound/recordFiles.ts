import { rejected } from '../../errors.js';
import { xmlText } from '../../xml/xmlText.js';
import { parseXmlTree } from '../../xml/xmlTree.js';
import { RECORD_FILE_READERS } from '../formats/registry.js';
import type { InboundRequest } from './inboundRequest.js';
import { INBOUND_XML_BOUNDS } from './limits.js';

/**
 * Files that hold records about invoices rather than an invoice (format.ts RecordFileReader, e.g.
 * VERI*FACTU's billing records): recognised before the document is read as an invoice. Only XML
 * holding a reader's marker is parsed here, with the bounds of every inbound XML, so any other
 * document costs a byte search.
 */
export function readRecordFile(request: InboundRequest): { describe: string; answer: object } | undefined {
  if (request.format !== 'xml') return undefined;
  const bytes = Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength);
  const readers = RECORD_FILE_READERS.filter((reader) => bytes.includes(reader.marker));
  if (readers.length === 0) return undefined;
  const root = parseXmlTree(xmlText(bytes), INBOUND_XML_BOUNDS);
  const reader = readers.find((candidate) => candidate.recognises(root));
  return reader ? { describe: reader.describe, answer: reader.inspect(root) } : undefined;
}

/** render.pdf of a file of records: refused before payment, since there is no invoice to print. */
export const recordsNotPrintable = (describe: string) => {
  const message = `The document is ${describe}: records about invoices, not an invoice to print. POST /v1/e-invoice/inspect reads it (free); print the invoice itself with POST /v1/invoice.pdf.`;
  return rejected('einvoice_not_printable', message, [{ path: '', code: 'einvoice_not_printable', message }]);
};
