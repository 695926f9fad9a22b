import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { buildCii } from './cii.js';
import { toEInvoiceDocument } from './document.js';
import { buildUbl } from './ubl.js';

export type XmlSyntax = 'cii' | 'ubl';

/** The EN 16931 XML of a prepared invoice, as UTF-8 bytes. */
export function eInvoiceXml(prepared: PreparedInvoice, syntax: XmlSyntax): Buffer {
  const document = toEInvoiceDocument(prepared);
  return Buffer.from(syntax === 'cii' ? buildCii(document) : buildUbl(document), 'utf8');
}
