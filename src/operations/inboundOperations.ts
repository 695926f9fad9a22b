import { bodyIsAnArray } from '../errors.js';
import { eInvoiceXml } from '../einvoice/eInvoiceDocuments.js';
import { EXAMPLE_EINVOICE } from '../einvoice/example.js';
import {
  INBOUND_MEDIA_TYPES,
  InboundArgumentsSchema,
  parseInboundArguments,
  parseInboundDocument,
  type InboundRequest,
} from '../einvoice/inbound/inboundRequest.js';
import { buildInspectAnswer } from '../einvoice/inbound/inspect.js';
import { INBOUND_LIMITS } from '../einvoice/inbound/limits.js';
import { readForInspect, readForRender } from '../einvoice/inbound/readInboundRequest.js';
import { RECORD_FILE_READERS } from '../einvoice/formats/registry.js';
import { prepareEInvoice } from '../einvoice/prepareEInvoice.js';
import { LANGUAGES } from '../invoice/locales.js';
import type { InboundRender } from '../render/inboundView.js';
import type { Renderer } from '../render/renderer.js';
import { renderingUnavailable } from './invoiceOperations.js';
import type { DocumentBody, Operation, PaidAnswer, PdfRenderer } from './operation.js';
import { parseRequestJson } from './requestJson.js';

/** The files both inbound routes read, named in their summaries (BODY says each in full). */
const WHAT_IS_READ = 'CII, UBL, KSeF FA(3), FatturaPA or its signed .p7m, hybrid PDF';

/** A renderer that also prints inbound e-invoices (src/render/renderer.ts). */
type InboundRenderer = PdfRenderer & Pick<Renderer, 'renderInboundPdf'>;

/** Files of records about invoices (format.ts RecordFileReader): inspect reports them, render.pdf refuses them. */
const RECORD_FILES = RECORD_FILE_READERS.map((reader) => reader.describe).join('; ');
const RECORDS_READ = RECORD_FILES
  ? ` Also read: ${RECORD_FILES}, answered with its records instead of an invoice: each huella as stated and recomputed, each link of its chain, each invoice's QR URL.`
  : '';

/** Our own CII of the e-invoice example, as the text the JSON form's `xml` takes (a Buffer would serialize as {type, data}). */
const EXAMPLE = { xml: eInvoiceXml(prepareEInvoice(EXAMPLE_EINVOICE), 'cii').toString('utf8'), locale: 'de-DE' };
const BODY = `The request body is the e-invoice itself: Content-Type application/xml or text/xml for UN/CEFACT CII (Factur-X / ZUGFeRD MINIMUM to EXTENDED, XRechnung CII) or UBL 2.1 Invoice / CreditNote (EN 16931, XRechnung UBL, Peppol BIS 3.0, with or without a Peppol SBDH envelope, which may also carry a hybrid PDF as BinaryContent) or ZUGFeRD 1.0 (BASIC, COMFORT, EXTENDED) or a Polish KSeF FA(3) Faktura or an Italian FatturaPA (also signed: application/pkcs7-mime, .p7m in DER or BER, raw or as base64 text, also signed again; a file of several FatturaElettronicaBody holds several documents, and the document query parameter picks the one read, 1 by default; render.pdf without it prints every document, each from a new page), application/pdf for a Factur-X / ZUGFeRD (1.0 or 2.x) / XRechnung hybrid PDF (its embedded XML is read). At most ${INBOUND_LIMITS.bodyBytes} bytes, ${INBOUND_LIMITS.xmlElements} elements nested at most ${INBOUND_LIMITS.xmlDepth} deep, ${INBOUND_LIMITS.lines} lines; a DOCTYPE or entity declaration is refused unread. Or JSON { xml } / { pdf_base64 } / { p7m_base64 } (with locale and document), as over MCP. Refusals are 400 (xml_malformed, xml_doctype_refused, xml_too_deep, einvoice_too_large, einvoice_unknown_root, einvoice_binary_unsupported, einvoice_document_not_found, pdf_malformed, pdf_encrypted, pdf_no_einvoice, p7m_malformed, p7m_nested), 413 or 415, never charged.`;

/** The JSON form { xml } / { pdf_base64 } sent over HTTP, parsed by the operations' strict parser (the same errors as every JSON body). */
function jsonFormOf(document: DocumentBody): { value: unknown } | undefined {
  if (document.mediaType !== 'application/json') return undefined;
  const value = parseRequestJson(new TextDecoder().decode(document.bytes));
  if (Array.isArray(value)) throw bodyIsAnArray();
  return { value };
}

/**
 * POST /v1/e-invoice/inspect (free) and /v1/e-invoice/render.pdf (paid): inbound e-invoices. Both
 * are document rows (operation.ts `document`): over HTTP the body is the XML or PDF itself, or JSON
 * { xml } / { pdf_base64 } as over MCP. Their `parse` reads the document on the compute pool, before
 * anything about payment, so a refused document is a 400 that is never charged.
 */
export function inboundOperations(
  renderer: PdfRenderer | undefined,
  onRendered?: (seconds: number, pages: number) => void,
  verificationDefaults: Readonly<Record<string, unknown>> = {},
): Operation[] {
  const inboundRenderer = renderer && 'renderInboundPdf' in renderer ? (renderer as InboundRenderer) : undefined;
  // The server's configured verification-code arguments (KSEF_QR_ENVIRONMENT) apply where the request names none.
  const withDefaults = (request: InboundRequest): InboundRequest => ({
    ...request,
    codeArguments: { ...verificationDefaults, ...request.codeArguments },
  });
  const requestReadBy = <T>(read: (request: ReturnType<typeof parseInboundArguments>) => T) => ({
    schema: InboundArgumentsSchema,
    example: EXAMPLE,
    parse: (body: unknown) => read(withDefaults(parseInboundArguments(body))),
    document: {
      mediaTypes: INBOUND_MEDIA_TYPES,
      limitBytes: INBOUND_LIMITS.bodyBytes,
      parseDocument: (document: DocumentBody) =>
        read(withDefaults(parseInboundDocument(document, jsonFormOf(document)))),
    },
  });

  const inspect: Operation<ReturnType<typeof readForInspect>> = {
    method: 'POST',
    path: '/v1/e-invoice/inspect',
    operationId: 'v1_e_invoice_inspect',
    summary: `Read an inbound e-invoice (${WHAT_IS_READ}): its data, totals and broken rules (free)`,
    description: `Answers the detected syntax, specification (BT-24) and profile (BT-23) identifiers; the invoice as this service's own JSON invoice (send it to /v1/e-invoice/cii.xml or ubl.xml with "profile": reissue.profile to re-issue it; reissue.folded says what the smaller JSON model folded, reissue.issues why it would be refused); the document's own totals beside the totals recomputed from its lines, with every difference; the EN 16931 rules it breaks and, for an XRechnung, Peppol BIS or French document, its national rules (this service's checks; rules.checked names them); and every value the JSON has no place for. An unknown specification identifier is read as plain EN 16931 with a note.${RECORDS_READ} ${BODY}`,
    tag: 'Invoices',
    request: requestReadBy(readForInspect),
    response: { contentType: 'application/json', description: 'What the document is and holds.' },
    compute: (read) => ('records' in read ? read.records : buildInspectAnswer(read.invoice, read.source)),
  };

  const render: Operation<InboundRender> = {
    method: 'POST',
    path: '/v1/e-invoice/render.pdf',
    operationId: 'v1_e_invoice_render_pdf',
    summary: `Render an inbound e-invoice (${WHAT_IS_READ}) as a readable PDF in ${LANGUAGES.length} languages (paid, x402)`,
    description: `Our designed PDF of the e-invoice, in the language of the locale query parameter (${LANGUAGES.join(', ')}; ar and he right to left): parties, references, lines with their allowances and charges, VAT breakdown, the document's own totals (and, where its lines give other totals, both), payment means with the SEPA QR code for a EUR IBAN, notes, the list of attachments (never opened) and every other value with its BT number. Marked as a visualisation: the electronic invoice is the XML. An FA(3) carries its KSeF verification QR code (KOD I, over the bytes as sent), captioned with the ksef_number query parameter (checked: format, CRC-8, seller NIP; a bad one is a 400) or OFFLINE; ksef_environment=test or demo for the test hosts. Nothing in the document is fetched or run.${RECORD_FILES ? ` A file of records (${RECORD_FILES}) holds no invoice to print: 400 einvoice_not_printable, never charged.` : ''} ${BODY}`,
    tag: 'Invoices',
    request: requestReadBy(readForRender),
    response: { contentType: 'application/pdf', description: 'The PDF.' },
    // Not async: renderInboundPdf's admission must throw before this returns (see PdfRenderer).
    handle(read, { signal, specimen = false }) {
      return produceInboundPdf(inboundRenderer, read, signal, onRendered, specimen);
    },
  };
  return [inspect, render];
}

function produceInboundPdf(
  renderer: InboundRenderer | undefined,
  render: InboundRender,
  signal: AbortSignal,
  onRendered?: (seconds: number, pages: number) => void,
  specimen = false,
): Promise<PaidAnswer> {
  if (!renderer) throw renderingUnavailable();
  const started = performance.now();
  return renderer.renderInboundPdf(render, { signal, specimen }).then(({ pdf, pages }) => {
    onRendered?.((performance.now() - started) / 1000, pages);
    const stem = render.invoice.number.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 64) || 'invoice';
    return {
      contentType: 'application/pdf',
      body: pdf,
      headers: { 'Content-Disposition': `inline; filename="e-invoice-${stem}.pdf"`, 'X-Page-Count': String(pages) },
    };
  });
}
