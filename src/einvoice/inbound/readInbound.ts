import { openEnvelopes } from '../../cms/envelopes.js';
import { rejected } from '../../errors.js';
import { pdfEmbeddedFiles } from '../../pdf/pdfEmbeddedFiles.js';
import { xmlText } from '../../xml/xmlText.js';
import { parseXmlTree, type XNode } from '../../xml/xmlTree.js';
import { INBOUND_LIMITS, INBOUND_PDF_BOUNDS, INBOUND_XML_BOUNDS } from './limits.js';
import type { InboundInvoice } from './model.js';
import { CII_TABLE } from './ciiTable.js';
import { readSyntax } from './readSyntax.js';
import { UBL_CREDIT_NOTE_TABLE, UBL_INVOICE_TABLE } from './ublTable.js';
import { embeddedXmlRoot } from './embeddedRoot.js';
import { documentNotFound, noEInvoiceInPdf, unknownRoot, unreadableBinary } from './refusals.js';
import { OWN_SYNTAX_READERS } from '../formats/registry.js';

/**
 * An inbound e-invoice from the bytes a client sent: XML (CII, UBL Invoice or CreditNote, either
 * inside a Peppol SBDH envelope, or a syntax a format module reads, also in a CAdES .p7m) or a hybrid PDF whose embedded XML is one of those. Pure CPU work,
 * run on the compute pool (operations/operationJobs.ts). Every refusal is an InputRejected (400).
 */
export type InboundFormat = 'xml' | 'pdf';

const NAMESPACES = {
  cii: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ublInvoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  ublCreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  sbdh: 'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader',
} as const;

export interface InboundSource {
  format: InboundFormat;
  /** For a PDF: how many embedded files it had, and that the invoice was one of them. */
  embeddedFiles: number | null;
  /** A CAdES .p7m envelope's signers (certificate subjects; nothing verified). */
  signers?: string[];
  /** A file with several documents (FatturaPA's bodies): how many, which one was read (1-based), and all of them. */
  documents?: number;
  document?: number;
  all?: InboundInvoice[];
}

/**
 * `document`: which document of a file that holds several is read (1-based; 1 for any other file).
 * `file`: the bytes of the invoice's own XML file exactly as received (the XML sent, a .p7m's
 * content, a PDF's attachment), which a verification code hashes (formats/ksef/kodI.ts); absent
 * when the invoice is an element inside a Peppol envelope and so has no file of its own.
 */
export function readInbound(
  bytes: Uint8Array,
  format: InboundFormat,
  document = 1,
): { invoice: InboundInvoice; source: InboundSource; file?: Uint8Array } {
  const read = readFile(bytes, format);
  const file = read.file ? { file: read.file } : {};
  const all = read.all ?? [read.invoice];
  if (document > all.length) throw documentNotFound(document, all.length);
  if (all.length === 1) return { invoice: read.invoice, source: read.source, ...file };
  const envelope = read.invoice.envelope;
  const chosen = { ...all[document - 1]!, envelope };
  return { invoice: chosen, source: { ...read.source, documents: all.length, document, all }, ...file };
}

type FileRead = { invoice: InboundInvoice; source: InboundSource; all?: InboundInvoice[]; file?: Uint8Array };

function readFile(bytes: Uint8Array, format: InboundFormat): FileRead {
  if (bytes.byteLength > INBOUND_LIMITS.bodyBytes) {
    throw rejected('einvoice_too_large', `The document is larger than ${INBOUND_LIMITS.bodyBytes} bytes.`, [
      { path: '', code: 'einvoice_too_large', message: 'too large' },
    ]);
  }
  if (format === 'xml') return readXml(bytes);
  return readPdf(bytes);
}

function readPdf(bytes: Uint8Array): FileRead {
  const files = pdfEmbeddedFiles(bytes, INBOUND_PDF_BOUNDS);
  for (const file of files) {
    const tree = tryTree(file);
    if (!tree) continue;
    const source: InboundSource = { format: 'pdf', embeddedFiles: files.length };
    return { invoice: fromRoot(unwrap(tree)), source, ...(isEnvelope(tree) ? {} : { file }) };
  }
  throw noEInvoiceInPdf(files.flatMap((file) => embeddedXmlRoot(file) ?? []));
}

function readXml(bytes: Uint8Array): FileRead {
  // A CAdES .p7m envelope (a signed FatturaPA; DER or BER, raw or base64, maybe signed again): its
  // content is read as if it had been sent itself; the signers are reported, nothing is verified.
  const signed = openEnvelopes(bytes, INBOUND_LIMITS.bodyBytes);
  if (!signed) return readXmlDocument(bytes);
  const read = readXmlDocument(signed.content);
  return {
    ...read,
    invoice: { ...read.invoice, envelope: 'cades' },
    source: { ...read.source, signers: signed.signers },
  };
}

function readXmlDocument(bytes: Uint8Array): FileRead {
  const tree = parseXmlTree(xmlText(bytes), INBOUND_XML_BOUNDS);
  const binary = envelopedBinary(tree);
  if (binary) {
    // A Peppol envelope around a binary document: the PDF is read as if it had been sent itself.
    const read = readPdf(binary);
    return { ...read, invoice: { ...read.invoice, envelope: 'sbdh' } };
  }
  const source: InboundSource = { format: 'xml', embeddedFiles: null };
  // A syntax whose files may hold several documents (FatturaPA's bodies) is read whole.
  const several = OWN_SYNTAX_READERS.find((reader) => reader.readAll && reader.recognises(tree));
  const all = several?.readAll?.(tree);
  const file = isEnvelope(tree) ? {} : { file: bytes };
  if (all && all.length > 0) return { invoice: all[0]!, source, all, ...file };
  return { invoice: fromRoot(tree), source, ...file };
}

/** Text every e-invoice file contains (a namespace or root name): other attachments are skipped unparsed. */
const EMBEDDED_MARKERS = [
  'CrossIndustryInvoice',
  ':Invoice-2',
  ':CreditNote-2',
  'StandardBusinessDocument',
  ...OWN_SYNTAX_READERS.map((reader) => reader.marker),
];

/**
 * The parsed embedded file when it is an e-invoice (or a Peppol envelope around one); other
 * attachments are skipped. A file that names an invoice namespace but is refused (a DOCTYPE, too
 * deep) is refused as such.
 */
function tryTree(file: Buffer): XNode | undefined {
  const text = file.toString('latin1');
  if (!EMBEDDED_MARKERS.some((marker) => text.includes(marker))) return undefined;
  const tree = parseXmlTree(xmlText(file), INBOUND_XML_BOUNDS);
  return isInvoiceRoot(unwrap(tree)) ? tree : undefined;
}

function fromRoot(tree: XNode): InboundInvoice {
  const root = unwrap(tree);
  const invoice = readRoot(root);
  return root === tree ? invoice : { ...invoice, envelope: 'sbdh' };
}

function readRoot(root: XNode): InboundInvoice {
  if (root.ns === NAMESPACES.cii && root.name === 'CrossIndustryInvoice') return readSyntax(root, CII_TABLE);
  if (root.ns === NAMESPACES.ublInvoice && root.name === 'Invoice') return readSyntax(root, UBL_INVOICE_TABLE);
  if (root.ns === NAMESPACES.ublCreditNote && root.name === 'CreditNote')
    return readSyntax(root, UBL_CREDIT_NOTE_TABLE);
  const own = OWN_SYNTAX_READERS.find((reader) => reader.recognises(root));
  if (own) return own.read(root);
  throw unknownRoot(
    describe(root),
    OWN_SYNTAX_READERS.map((reader) => reader.describe),
  );
}

const isEnvelope = (tree: XNode) => tree.ns === NAMESPACES.sbdh && tree.name === 'StandardBusinessDocument';

/** A Peppol StandardBusinessDocument carries the invoice as the element after its header. */
function unwrap(root: XNode): XNode {
  if (!isEnvelope(root)) return root;
  const inner = root.children.filter((child) => child.name !== 'StandardBusinessDocumentHeader');
  return inner.length === 1 ? inner[0]! : root;
}

function isInvoiceRoot(root: XNode): boolean {
  return (
    (root.ns === NAMESPACES.cii && root.name === 'CrossIndustryInvoice') ||
    (root.ns === NAMESPACES.ublInvoice && root.name === 'Invoice') ||
    (root.ns === NAMESPACES.ublCreditNote && root.name === 'CreditNote') ||
    OWN_SYNTAX_READERS.some((reader) => reader.recognises(root))
  );
}

/**
 * The binary document a Peppol envelope carries instead of an XML invoice (BinaryContent,
 * base64, as the Peppol envelope specification allows): its bytes when it is a PDF, a refusal
 * when it is anything else, undefined when the envelope holds XML.
 */
function envelopedBinary(tree: XNode): Uint8Array | undefined {
  if (!isEnvelope(tree)) return undefined;
  const binary = tree.children.find((child) => child.name === 'BinaryContent');
  if (!binary) return undefined;
  const mimeType = binary.attrs.mimeType ?? '';
  if (mimeType !== 'application/pdf') throw unreadableBinary(mimeType || 'no mimeType');
  if (binary.text.length > (INBOUND_LIMITS.bodyBytes * 4) / 3 + 4) throw unreadableBinary('larger than the body limit');
  const bytes = Buffer.from(binary.text.replace(/\s+/g, ''), 'base64');
  if (bytes.subarray(0, 1024).indexOf('%PDF-') < 0) throw unreadableBinary('not a PDF');
  return bytes;
}

function describe(root: XNode): string {
  const name = root.ns ? `{${root.ns}}${root.name}` : root.name;
  return name.length > 200 ? `${name.slice(0, 200)}…` : name;
}
