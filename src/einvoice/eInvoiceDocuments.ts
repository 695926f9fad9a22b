import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { buildCii } from './cii.js';
import { toEInvoiceDocument } from './document.js';
import { buildUbl } from './ubl.js';

/** What a paid e-invoice route hands back: the work the payment gate settles for. */
export interface ProducedDocument {
  contentType: string;
  body: Buffer;
  headers: Record<string, string>;
}

export type XmlSyntax = 'cii' | 'ubl';

/** The EN 16931 XML of a prepared invoice, as UTF-8 bytes. */
export function eInvoiceXml(prepared: PreparedInvoice, syntax: XmlSyntax): Buffer {
  const document = toEInvoiceDocument(prepared);
  return Buffer.from(syntax === 'cii' ? buildCii(document) : buildUbl(document), 'utf8');
}

/** A safe file name from the invoice number: letters, digits, dot, dash, underscore. */
export function fileStem(prepared: PreparedInvoice): string {
  return `invoice-${prepared.invoice.invoice_number.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 64)}`;
}

export function produceXml(prepared: PreparedInvoice, syntax: XmlSyntax): ProducedDocument {
  return {
    contentType: 'application/xml; charset=utf-8',
    body: eInvoiceXml(prepared, syntax),
    headers: { 'Content-Disposition': `attachment; filename="${fileStem(prepared)}-${syntax}.xml"` },
  };
}
