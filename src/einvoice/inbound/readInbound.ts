import { rejected } from '../../errors.js';
import { INBOUND_LIMITS } from './limits.js';
import type { InboundInvoice } from './model.js';
import { pdfEmbeddedFiles } from './pdfEmbeddedFiles.js';
import { isFa3Root, readFa3 } from '../formats/ksef/readFa3.js';
import { readCii } from './readCii.js';
import { readUbl } from './readUbl.js';
import { noEInvoiceInPdf, unknownRoot } from './refusals.js';
import { xmlText } from './xmlText.js';
import { parseXmlTree, type XNode } from './xmlTree.js';

/**
 * An inbound e-invoice from the bytes a client sent: XML (CII, UBL Invoice or CreditNote, either
 * inside a Peppol SBDH envelope) or a hybrid PDF whose embedded XML is one of those. Pure CPU work,
 * run on the compute pool (operations/operationJobs.ts). Every refusal is an InputRejected (400).
 */
export type InboundFormat = 'xml' | 'pdf';

export const NAMESPACES = {
  cii: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ublInvoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  ublCreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  sbdh: 'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader',
} as const;

export interface InboundSource {
  format: InboundFormat;
  /** For a PDF: how many embedded files it had, and that the invoice was one of them. */
  embeddedFiles: number | null;
}

export function readInbound(
  bytes: Uint8Array,
  format: InboundFormat,
): { invoice: InboundInvoice; source: InboundSource } {
  if (bytes.byteLength > INBOUND_LIMITS.bodyBytes) {
    throw rejected('einvoice_too_large', `The document is larger than ${INBOUND_LIMITS.bodyBytes} bytes.`, [
      { path: '', code: 'einvoice_too_large', message: 'too large' },
    ]);
  }
  if (format === 'xml') return { invoice: readXml(bytes), source: { format, embeddedFiles: null } };
  const files = pdfEmbeddedFiles(bytes);
  for (const file of files) {
    const root = tryRoot(file);
    if (root) return { invoice: fromRoot(root), source: { format, embeddedFiles: files.length } };
  }
  throw noEInvoiceInPdf();
}

function readXml(bytes: Uint8Array): InboundInvoice {
  return fromRoot(parseXmlTree(xmlText(bytes)));
}

/**
 * The root of an embedded file when it is an e-invoice; other attachments are skipped. A file that
 * names an invoice namespace but is refused (a DOCTYPE, too deep) is refused as such.
 */
function tryRoot(file: Buffer): XNode | undefined {
  if (!/CrossIndustryInvoice|:Invoice-2|:CreditNote-2|StandardBusinessDocument/.test(file.toString('latin1')))
    return undefined;
  const root = unwrap(parseXmlTree(xmlText(file)));
  return isInvoiceRoot(root) ? root : undefined;
}

function fromRoot(tree: XNode): InboundInvoice {
  if (isFa3Root(tree)) return readFa3(tree);
  const root = unwrap(tree);
  if (!isInvoiceRoot(root)) throw unknownRoot(describe(root));
  const invoice = root.ns === NAMESPACES.cii ? readCii(root) : readUbl(root);
  return root === tree ? invoice : { ...invoice, envelope: 'sbdh' };
}

/** A Peppol StandardBusinessDocument carries the invoice as the element after its header. */
function unwrap(root: XNode): XNode {
  if (root.ns !== NAMESPACES.sbdh || root.name !== 'StandardBusinessDocument') return root;
  const inner = root.children.filter((child) => child.name !== 'StandardBusinessDocumentHeader');
  return inner.length === 1 ? inner[0]! : root;
}

function isInvoiceRoot(root: XNode): boolean {
  return (
    (root.ns === NAMESPACES.cii && root.name === 'CrossIndustryInvoice') ||
    (root.ns === NAMESPACES.ublInvoice && root.name === 'Invoice') ||
    (root.ns === NAMESPACES.ublCreditNote && root.name === 'CreditNote')
  );
}

function describe(root: XNode): string {
  const name = root.ns ? `{${root.ns}}${root.name}` : root.name;
  return name.length > 200 ? `${name.slice(0, 200)}…` : name;
}
