import { eInvoiceXml, type XmlSyntax } from '../einvoice/eInvoiceDocuments.js';
import { EXAMPLE_EINVOICE } from '../einvoice/example.js';
import { checkEInvoice, prepareEInvoice } from '../einvoice/prepareEInvoice.js';
import { buildEInvoiceValidation, EInvoiceValidationSchema } from '../einvoice/validationReport.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { InvoiceSchema } from '../invoice/schema.js';
import { toFacturXPdf } from '../render/facturX/facturXPdf.js';
import { renderingUnavailable } from './invoiceOperations.js';
import type { Operation, PaidAnswer, PdfRenderer } from './operation.js';

/**
 * The EN 16931 e-invoice routes: Factur-X PDF/A-3b, CII and UBL XML (paid, exactly like
 * /v1/invoice.pdf: EN 16931 rules → 400 before any 402, then verify → produce → settle) and a free
 * validate. Each paid handler calls one function that returns its file as a PaidAnswer.
 */
const eInvoiceRequest = { schema: InvoiceSchema, example: EXAMPLE_EINVOICE, parse: prepareEInvoice };

const REQUIRED_FIELDS =
  'Besides the invoice fields of /v1/invoice.pdf, EN 16931 needs: seller.country and buyer.country; seller.vat_id (and buyer.vat_id for AE and K lines); a unit code from UN/ECE Rec 20 when a line names one (C62 otherwise); tax_exemption_reason for E lines; due_date or payment_instructions when an amount is due; ship_to.country when ship_to is given. A request that breaks a rule is a 400 en16931_rules_failed listing every rule id (BR-…) with its field, never charged.';

export function eInvoiceOperations(renderer: PdfRenderer | undefined, onRendered?: (seconds: number, pages: number) => void): Operation[] {
  const facturX: Operation<PreparedInvoice> = {
    method: 'POST',
    path: '/v1/e-invoice/factur-x.pdf',
    operationId: 'v1_e_invoice_factur_x_pdf',
    summary: 'Render a Factur-X / ZUGFeRD e-invoice: PDF/A-3b with the EN 16931 XML embedded (paid, x402)',
    description: `The invoice PDF as PDF/A-3b with the EN 16931 CII XML embedded as factur-x.xml (Factur-X 1.0 / ZUGFeRD 2.x, profile EN 16931). ${REQUIRED_FIELDS}`,
    tag: 'Invoices',
    request: eInvoiceRequest,
    response: { contentType: 'application/pdf', description: 'The Factur-X PDF/A-3b.' },
    // Not async: renderPdf's admission must throw before this returns (see PdfRenderer).
    handle(prepared, { signal }) {
      return produceFacturX(renderer, prepared, signal, onRendered);
    },
  };

  const xmlRoute = (syntax: XmlSyntax, summary: string, description: string): Operation<PreparedInvoice> => ({
    method: 'POST',
    path: `/v1/e-invoice/${syntax}.xml`,
    operationId: `v1_e_invoice_${syntax}_xml`,
    summary,
    description: `${description} ${REQUIRED_FIELDS}`,
    tag: 'Invoices',
    request: eInvoiceRequest,
    response: { contentType: 'application/xml', description: 'The EN 16931 XML, UTF-8.' },
    handle: (prepared) => produceXml(prepared, syntax),
  });

  const validate: Operation<{ prepared: PreparedInvoice; issues: ReturnType<typeof checkEInvoice>['issues'] }> = {
    method: 'POST',
    path: '/v1/e-invoice/validate',
    operationId: 'v1_e_invoice_validate',
    summary: 'Check an invoice against EN 16931 and compute its totals (free)',
    description:
      'Applies the checks of the paid e-invoice routes and answers the totals with every EN 16931 rule the invoice breaks (rule id and field). valid is true when the paid routes would accept it. A body that is not a valid invoice at all is a 400 as on /v1/invoice/validate.',
    tag: 'Invoices',
    request: { schema: InvoiceSchema, example: EXAMPLE_EINVOICE, parse: checkEInvoice },
    response: {
      contentType: 'application/json',
      description: 'Validity, the failing rules and the totals.',
      schema: EInvoiceValidationSchema,
      example: buildEInvoiceValidation(prepareEInvoice(EXAMPLE_EINVOICE), []),
    },
    compute: ({ prepared, issues }) => buildEInvoiceValidation(prepared, issues),
  };

  return [
    facturX,
    xmlRoute('cii', 'EN 16931 e-invoice as UN/CEFACT CII XML (paid, x402)', 'The invoice as UN/CEFACT Cross Industry Invoice D16B XML, Factur-X / ZUGFeRD profile EN 16931 (urn:cen.eu:en16931:2017).'),
    xmlRoute('ubl', 'EN 16931 e-invoice as OASIS UBL 2.1 XML (paid, x402)', 'The invoice as OASIS UBL 2.1 XML with the EN 16931 customization: an Invoice, or a CreditNote when document_type is credit_note.'),
    validate,
  ];
}

/**
 * The Factur-X work: Chromium's invoice PDF, finished as PDF/A-3b around the CII XML. Not async:
 * the render's admission (renderer_busy) must throw before this returns.
 */
export function produceFacturX(
  renderer: PdfRenderer | undefined,
  prepared: PreparedInvoice,
  signal?: AbortSignal,
  onRendered?: (seconds: number, pages: number) => void,
): Promise<PaidAnswer> {
  if (!renderer) throw renderingUnavailable();
  const xml = eInvoiceXml(prepared, 'cii');
  const started = performance.now();
  return renderer.renderPdf(prepared, signal ? { signal } : {}).then(({ pdf, pages }) => {
    onRendered?.((performance.now() - started) / 1000, pages);
    return {
      contentType: 'application/pdf',
      body: toFacturXPdf(pdf, { xml, conformanceLevel: 'EN 16931' }),
      headers: { 'Content-Disposition': `inline; filename="${fileStem(prepared)}-factur-x.pdf"`, 'X-Page-Count': String(pages) },
    };
  });
}

function produceXml(prepared: PreparedInvoice, syntax: XmlSyntax): PaidAnswer {
  return {
    contentType: 'application/xml; charset=utf-8',
    body: eInvoiceXml(prepared, syntax),
    headers: { 'Content-Disposition': `attachment; filename="${fileStem(prepared)}-${syntax}.xml"` },
  };
}

/** A safe file name from the invoice number: letters, digits, dot, dash, underscore. */
function fileStem(prepared: PreparedInvoice): string {
  return `invoice-${prepared.invoice.invoice_number.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 64)}`;
}
