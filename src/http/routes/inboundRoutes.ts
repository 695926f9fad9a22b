import type { ComputePool } from '../../compute/computePool.js';
import { INBOUND_JOBS, type InboundJobInput } from '../../einvoice/inbound/inboundJobs.js';
import { INBOUND_LIMITS } from '../../einvoice/inbound/limits.js';
import { INBOUND_MEDIA_TYPES, InboundArgumentsSchema, parseInboundArguments, parseInboundBytes, type InboundRequest } from '../../einvoice/inbound/inboundRequest.js';
import { operationContextAt } from '../../helpers/operation.js';
import type { InboundRender } from '../../render/inboundView.js';
import type { Renderer } from '../../render/renderer.js';
import type { PaidAnswer } from '../answer.js';
import type { RouteSpec } from '../routeSpec.js';
import { renderingUnavailable, type PdfRenderer } from './invoiceRoutes.js';

type RenderInput = InboundRequest & { read?: InboundRender };

/** A renderer that also prints inbound e-invoices (src/render/renderer.ts). */
export type InboundRenderer = PdfRenderer & Pick<Renderer, 'renderInboundPdf'>;

const EXAMPLE = { xml: '<?xml version="1.0" encoding="UTF-8"?><rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">…</rsm:CrossIndustryInvoice>', locale: 'de-DE' };

const BODY = `The request body is the e-invoice itself: Content-Type application/xml or text/xml for UN/CEFACT CII (Factur-X / ZUGFeRD MINIMUM to EXTENDED, XRechnung CII) or UBL 2.1 Invoice / CreditNote (EN 16931, XRechnung UBL, Peppol BIS 3.0, with or without a Peppol SBDH envelope), application/pdf for a Factur-X / ZUGFeRD / XRechnung hybrid PDF (its embedded XML is read). At most ${INBOUND_LIMITS.bodyBytes} bytes, ${INBOUND_LIMITS.xmlElements} elements nested at most ${INBOUND_LIMITS.xmlDepth} deep, ${INBOUND_LIMITS.lines} lines; a DOCTYPE or entity declaration is refused unread. Over MCP: { xml } or { pdf_base64 }. Refusals are 400 (xml_malformed, xml_doctype_refused, xml_too_deep, einvoice_too_large, einvoice_unknown_root, pdf_malformed, pdf_encrypted, pdf_no_einvoice), 413 or 415, never charged.`;

/**
 * POST /v1/e-invoice/inspect (free) and /v1/e-invoice/render.pdf (paid): inbound e-invoices read
 * on the compute pool (inline when the service runs without one), the PDF printed by the renderer.
 */
export function inboundRoutes(renderer: InboundRenderer | undefined, pool: ComputePool | undefined, onRendered?: (seconds: number, pages: number) => void): RouteSpec<any>[] {
  const run = async (job: keyof typeof INBOUND_JOBS, input: InboundRequest): Promise<Buffer> => {
    const body: InboundJobInput = { bytes: input.bytes, format: input.format };
    if (pool) return pool.run(job, body, operationContextAt(new Date()));
    return Buffer.from(JSON.stringify(INBOUND_JOBS[job](body)));
  };
  const request = {
    schema: InboundArgumentsSchema,
    example: EXAMPLE,
    parse: parseInboundArguments,
    bytes: { mediaTypes: INBOUND_MEDIA_TYPES, limitBytes: INBOUND_LIMITS.bodyBytes, parseBytes: parseInboundBytes },
  };
  const readDocument = async (input: InboundRequest): Promise<InboundRender> => {
    const read = JSON.parse((await run('einvoice_read', input)).toString('utf8')) as Omit<InboundRender, 'locale'>;
    return { ...read, locale: input.locale };
  };
  // Over HTTP the document is read before the payment gate, so a refused document is a 400 that
  // never reaches a facilitator; over MCP (arguments parsed synchronously) it is read in the work,
  // where a refusal is an error answer that is never settled.
  const renderRequest = {
    ...request,
    bytes: {
      ...request.bytes,
      parseBytes: async (body: Buffer, mediaType: string, query: Record<string, string | undefined>): Promise<RenderInput> => {
        const input = parseInboundBytes(body, mediaType, query);
        return { ...input, read: await readDocument(input) };
      },
    },
  };

  const inspect: RouteSpec<InboundRequest> = {
    method: 'POST',
    path: '/v1/e-invoice/inspect',
    operationId: 'v1_e_invoice_inspect',
    summary: 'Read an inbound e-invoice (CII, UBL, hybrid PDF): its data, totals and broken rules (free)',
    description: `Answers the detected syntax, specification (BT-24) and profile (BT-23) identifiers; the invoice as this service's own JSON invoice (send it to /v1/e-invoice/cii.xml or ubl.xml to re-issue it; reissue.folded says what the smaller JSON model folded, reissue.issues why it would be refused); the document's own totals beside the totals recomputed from its lines, with every difference; the EN 16931 rules it breaks (this service's checks); and every value the JSON has no place for. An unknown specification identifier is read as plain EN 16931 with a note. ${BODY}`,
    tag: 'Invoices',
    request,
    response: { contentType: 'application/json', description: 'What the document is and holds.' },
    handle: async (input) => ({ contentType: 'application/json; charset=utf-8', body: await run('einvoice_inspect', input) }),
  };

  const render: RouteSpec<RenderInput> = {
    method: 'POST',
    path: '/v1/e-invoice/render.pdf',
    operationId: 'v1_e_invoice_render_pdf',
    summary: 'Render an inbound e-invoice (CII, UBL, hybrid PDF) as a readable PDF in 14 languages (paid, x402)',
    description: `Our designed PDF of the e-invoice, in the language of the locale query parameter (en, de, fr, es, it, nl, pt, pl, sv, ja, zh, ar, he, hi; ar and he right to left): parties, references, lines with their allowances and charges, VAT breakdown, the document's own totals (and, where its lines give other totals, both), payment means with the SEPA QR code for a EUR IBAN, notes, the list of attachments (never opened) and every other value with its BT number. Marked as a visualisation: the electronic invoice is the XML. Nothing in the document is fetched or run. ${BODY}`,
    tag: 'Invoices',
    request: renderRequest,
    response: { contentType: 'application/pdf', description: 'The PDF.' },
    // Not async when the document was read already: the render's admission (renderer_busy) must
    // throw before this returns (routeSpec.ts).
    handle(input, { signal }) {
      if (input.read) return produceInboundPdf(renderer, input.read, signal, onRendered);
      return readDocument(input).then((read) => produceInboundPdf(renderer, read, signal, onRendered));
    },
  };
  return [inspect, render];
}

function produceInboundPdf(renderer: InboundRenderer | undefined, render: InboundRender, signal: AbortSignal, onRendered?: (seconds: number, pages: number) => void): Promise<PaidAnswer> {
  if (!renderer) throw renderingUnavailable();
  const started = performance.now();
  return renderer.renderInboundPdf(render, { signal }).then(({ pdf, pages }) => {
    onRendered?.((performance.now() - started) / 1000, pages);
    const stem = render.invoice.number.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 64) || 'invoice';
    return { contentType: 'application/pdf', body: pdf, headers: { 'Content-Disposition': `inline; filename="e-invoice-${stem}.pdf"`, 'X-Page-Count': String(pages) } };
  });
}
