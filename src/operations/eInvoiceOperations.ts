import { eInvoiceXml, type XmlSyntax } from '../einvoice/eInvoiceDocuments.js';
import { EXAMPLE_EINVOICE, EXAMPLE_PROFILE_REQUESTS } from '../einvoice/example.js';
import { FORMATS, OWN_SYNTAX_FORMATS, operationIdOf, type OwnSyntaxFormat } from '../einvoice/formats/registry.js';
import { withPrintedLegalNotes } from '../einvoice/legalNotes.js';
import { specimenXml } from '../einvoice/specimenMarks.js';
import { asSpecimen } from '../invoice/specimen.js';
import { fileStem, writeOwnSyntax, type OwnSyntaxFile } from '../einvoice/ownSyntax.js';
import {
  checkEInvoice,
  prepareEInvoice,
  prepareProfiledEInvoice,
  type ProfiledInvoice,
} from '../einvoice/prepareEInvoice.js';
import { preparePrintedEInvoice, PRINTING_NOTE } from '../einvoice/printing.js';
import { DEFAULT_PROFILE, PROFILES, type EInvoiceFormat, type EInvoiceProfile } from '../einvoice/profiles.js';
import { EInvoiceRequestSchema } from '../einvoice/requestSchema.js';
import { buildEInvoiceValidation, EInvoiceValidationSchema } from '../einvoice/validationReport.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { toFacturXPdf } from '../render/facturX/facturXPdf.js';
import { renderingUnavailable } from './invoiceOperations.js';
import type { InputResolver, Operation, OperationContext, PaidAnswer, PdfRenderer } from './operation.js';
import { storedLookResolver, type LookStores } from './lookResolvers.js';

/**
 * The e-invoice routes: Factur-X PDF/A-3b, CII and UBL XML (paid, exactly like /v1/invoice.pdf:
 * EN 16931 and the profile's national rules → 400 before any 402, then verify → produce → settle),
 * one route per syntax of a format's own (its module's writer: FA(3), FatturaPA) and a free
 * validate. Each paid handler calls one function that returns its file as a PaidAnswer.
 */

/** The request of a route producing `format`: the profile examples that exist in that format, named after their profile. */
const eInvoiceRequest = (format: EInvoiceFormat) => ({
  schema: EInvoiceRequestSchema,
  example: EXAMPLE_EINVOICE,
  moreExamples: Object.fromEntries(
    Object.entries(EXAMPLE_PROFILE_REQUESTS).filter(([profile]) =>
      (PROFILES[profile as EInvoiceProfile].writes as readonly EInvoiceFormat[]).includes(format),
    ),
  ),
  parse: (body: unknown) => prepareProfiledEInvoice(body, format),
});

const REQUIRED_FIELDS =
  'Besides the invoice fields of /v1/invoice.pdf, EN 16931 needs: seller.country and buyer.country; seller.vat_id or seller.legal_registration (and buyer.vat_id for AE and K lines); a unit code from UN/ECE Rec 20 when a line names one (C62 otherwise); tax_exemption_reason for E lines; due_date or payment_instructions when an amount is due; ship_to.country when ship_to is given. A request that breaks a rule is a 400 en16931_rules_failed listing every rule id (BR-…) with its field, never charged.';

const PROFILE_NOTE = `The optional top-level profile chooses the rules on top of EN 16931: ${FORMATS.map((format) => `${format.id} (${format.blurb})`).join(', ')}. A national rule that fails is a 400 einvoice_rules_failed listing every rule id (BR-DE-…, PEPPOL-…, BR-FR-…) with its field, never charged; GET /v1/schema and docs/e-invoices-national.md list each profile's fields.`;

/** A stored-theme look-up for a request whose invoice sits beside its profile (and its rule issues). */
function profiledThemeResolver<T extends ProfiledInvoice>(resolver: InputResolver<PreparedInvoice>): InputResolver<T> {
  return {
    needed: ({ prepared }) => resolver.needed(prepared),
    resolve: async (profiled) => ({ ...profiled, prepared: await resolver.resolve(profiled.prepared) }),
  };
}

export function eInvoiceOperations(
  renderer: PdfRenderer | undefined,
  onRendered?: (seconds: number, pages: number) => void,
  stores: LookStores = {},
): Operation[] {
  // A theme named by id is looked up before payment where it shows (the PDF) and where the PDF's
  // acceptance is checked (validate): an unknown id is a 400, never charged. The XML has no look.
  const storedTheme = storedLookResolver(stores);
  const facturX: Operation<ProfiledInvoice> = {
    method: 'POST',
    path: '/v1/e-invoice/factur-x.pdf',
    operationId: 'v1_e_invoice_factur_x_pdf',
    summary: 'Render a Factur-X / ZUGFeRD e-invoice: PDF/A-3b with the EN 16931 XML embedded (paid, x402)',
    description: `The invoice PDF as PDF/A-3b with the CII XML embedded as factur-x.xml (Factur-X 1.0 / ZUGFeRD 2.x, profile EN 16931; with profile xrechnung the ZUGFeRD XRECHNUNG profile, embedded as xrechnung.xml). ${REQUIRED_FIELDS} ${PROFILE_NOTE} ${PRINTING_NOTE} A surcharge on top of VAT is refused here (400 surcharge_not_in_en16931): the embedded XML cannot carry it, so /v1/invoice.pdf prints that invoice.`,
    tag: 'Invoices',
    request: {
      ...eInvoiceRequest('factur-x'),
      // The formats' printing objects print here too (src/einvoice/printing.ts: Spain's QR tributario).
      parse: (body: unknown, context) => preparePrintedEInvoice(body, context),
      resolve: profiledThemeResolver(storedTheme),
    },
    response: { contentType: 'application/pdf', description: 'The Factur-X PDF/A-3b.' },
    // Not async: renderPdf's admission must throw before this returns (see PdfRenderer).
    handle({ prepared, profile }, { signal, specimen = false }) {
      return produceFacturX(renderer, prepared, signal, onRendered, profile, specimen);
    },
  };

  const xmlRoute = (syntax: XmlSyntax, summary: string, description: string): Operation<ProfiledInvoice> => ({
    method: 'POST',
    path: `/v1/e-invoice/${syntax}.xml`,
    operationId: `v1_e_invoice_${syntax}_xml`,
    summary,
    description: `${description} ${REQUIRED_FIELDS} ${PROFILE_NOTE}`,
    tag: 'Invoices',
    request: eInvoiceRequest(syntax),
    response: { contentType: 'application/xml', description: 'The e-invoice XML, UTF-8.' },
    handle: ({ prepared, profile }, { specimen = false }) => produceXml(prepared, syntax, profile, specimen),
  });

  const validate: Operation<ReturnType<typeof checkEInvoice>> = {
    method: 'POST',
    path: '/v1/e-invoice/validate',
    operationId: 'v1_e_invoice_validate',
    summary: 'Check an invoice against EN 16931 (and a national profile) and compute its totals (free)',
    description:
      "Applies the checks of the paid e-invoice routes under the request's profile (default en16931) and answers the totals with every rule the invoice breaks (rule id and field), the specification identifier and the rule sets checked. valid is true when the paid routes would accept it. A body that is not a valid invoice at all is a 400 as on /v1/invoice/validate.",
    tag: 'Invoices',
    request: {
      schema: EInvoiceRequestSchema,
      example: EXAMPLE_EINVOICE,
      moreExamples: EXAMPLE_PROFILE_REQUESTS,
      parse: (body: unknown, context) => checkEInvoice(body, undefined, momentOf(context)),
      resolve: profiledThemeResolver(storedTheme),
    },
    response: {
      contentType: 'application/json',
      description: "Validity, the failing rules, the profile's identifiers and rule sets, and the totals.",
      schema: EInvoiceValidationSchema,
      example: buildEInvoiceValidation(prepareEInvoice(EXAMPLE_EINVOICE), [], DEFAULT_PROFILE),
    },
    compute: (checked) => buildEInvoiceValidation(checked.prepared, checked.issues, checked.profile, checked.own),
  };

  return [
    facturX,
    xmlRoute(
      'cii',
      'EN 16931 e-invoice as UN/CEFACT CII XML (paid, x402)',
      'The invoice as UN/CEFACT Cross Industry Invoice D16B XML, Factur-X / ZUGFeRD profile EN 16931 (urn:cen.eu:en16931:2017), or XRechnung 3.0 / France with their profile.',
    ),
    xmlRoute(
      'ubl',
      'EN 16931 e-invoice as OASIS UBL 2.1 XML (paid, x402)',
      'The invoice as OASIS UBL 2.1 XML with the EN 16931 customization (or XRechnung, Peppol BIS Billing 3.0, France with their profile): an Invoice, or a CreditNote when document_type is credit_note.',
    ),
    ...OWN_SYNTAX_FORMATS.map(ownSyntaxOperation),
    validate,
  ];
}

/** A call's moment: what a check that depends on today, and a file stamped with its making, take. */
const momentOf = (context: OperationContext): Date => (context.now ? new Date(context.now) : new Date());

/** The route of a syntax of a format's own, all from its module's writer (formats/format.ts OwnSyntaxWriter). */
function ownSyntaxOperation(format: OwnSyntaxFormat): Operation<OwnSyntaxFile> {
  const { writer } = format;
  return {
    method: 'POST',
    path: writer.route,
    operationId: operationIdOf(writer.route),
    summary: writer.summary,
    description: writer.description,
    tag: 'Invoices',
    request: {
      schema: EInvoiceRequestSchema,
      example: format.example,
      // Written at the call's moment with the server's settings the writer declares (context.settings).
      parse: (body: unknown, context) =>
        writeOwnSyntax(format, body, momentOf(context), { settings: context.settings }),
    },
    response: { contentType: writer.mediaType, description: writer.answer },
    // Paid with test money: the file marked as a test document the way the format can (its specimen hook).
    handle: ({ checked, written }, { specimen = false }) => ({
      contentType: `${writer.mediaType}; charset=utf-8`,
      body: Buffer.from(specimen ? writer.specimen(checked, written.file) : written.file),
      headers: { 'Content-Disposition': `attachment; filename="${written.fileName}"`, ...written.headers },
    }),
  };
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
  profile: EInvoiceProfile = DEFAULT_PROFILE,
  specimen = false,
): Promise<PaidAnswer> {
  if (!renderer) throw renderingUnavailable();
  const hybrid = PROFILES[profile].hybrid;
  // prepareProfiledEInvoice refuses a profile without a hybrid form before any payment.
  if (!hybrid) throw new Error(`profile ${profile} has no Factur-X form`);
  const xml = specimen ? specimenXml(prepared, 'cii', profile) : eInvoiceXml(prepared, 'cii', profile);
  const printed = withPrintedLegalNotes(specimen ? asSpecimen(prepared) : prepared);
  const started = performance.now();
  return renderer.renderPdf(printed, { ...(signal ? { signal } : {}), specimen }).then(({ pdf, pages }) => {
    onRendered?.((performance.now() - started) / 1000, pages);
    return {
      contentType: 'application/pdf',
      body: toFacturXPdf(pdf, { xml, conformanceLevel: hybrid.conformanceLevel, fileName: hybrid.fileName }),
      headers: {
        'Content-Disposition': `inline; filename="${fileStem(prepared)}-${hybrid.fileName.replace(/\.xml$/, '')}.pdf"`,
        'X-Page-Count': String(pages),
      },
    };
  });
}

function produceXml(
  prepared: PreparedInvoice,
  syntax: XmlSyntax,
  profile: EInvoiceProfile,
  specimen: boolean,
): PaidAnswer {
  return {
    contentType: 'application/xml; charset=utf-8',
    body: specimen ? specimenXml(prepared, syntax, profile) : eInvoiceXml(prepared, syntax, profile),
    headers: {
      'Content-Disposition': `attachment; filename="${fileStem(prepared)}-${profile === DEFAULT_PROFILE ? '' : `${profile}-`}${syntax}.xml"`,
    },
  };
}
