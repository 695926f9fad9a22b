import { AppError } from '../errors.js';
import { EXAMPLE_INVOICE } from '../invoice/example.js';
import { EXAMPLE_REAL_WORLD_INVOICE } from '../invoice/exampleRealWorld.js';
import { describeProfiles } from '../einvoice/profiles.js';
import { describeInvoiceFields } from '../invoice/fieldNotes.js';
import { prepareInvoice, type PreparedInvoice } from '../invoice/prepareInvoice.js';
import { InvoicePdfRequestSchema, preparePrintedInvoice, PRINTING_NOTE } from '../einvoice/printing.js';
import { asSpecimen } from '../invoice/specimen.js';
import { buildTotalsReport, TotalsReportSchema } from '../invoice/totalsReport.js';
import type { Operation, PdfRenderer } from './operation.js';
import { storedLookResolver, type LookStores } from './lookResolvers.js';

/** A PDF operation on an instance built without a renderer (some tests, the compute workers). */
export const renderingUnavailable = (): AppError =>
  new AppError('not_implemented', 'PDF rendering is not available on this instance.');

const invoiceRequest = {
  // Published with the formats' printing objects (Spain's `verifactu`); parse validates (the invoice with InvoiceSchema).
  schema: InvoicePdfRequestSchema,
  example: EXAMPLE_INVOICE,
  moreExamples: { german_mixed_rate: EXAMPLE_REAL_WORLD_INVOICE },
  // A format's printing object is checked with its codes and adds what it prints (src/einvoice/printing.ts).
  parse: preparePrintedInvoice,
};

export function invoiceOperations(
  renderer: PdfRenderer | undefined,
  onRendered?: (seconds: number, pages: number) => void,
  stores: LookStores = {},
): Operation[] {
  // A theme named by id is looked up before payment (an unknown id: 400, never charged); validate
  // looks it up too, so that it accepts exactly what the PDF operation accepts.
  const request = { ...invoiceRequest, resolve: storedLookResolver(stores) };
  const validate: Operation<PreparedInvoice> = {
    method: 'POST',
    path: '/v1/invoice/validate',
    operationId: 'v1_invoice_validate',
    summary: 'Validate an invoice and compute its totals (free)',
    description:
      'Applies exactly the checks of the paid PDF route and answers the computed totals: every line, subtotal, discount, taxable amount, tax and total, the VAT groups (category, rate, net, discount share, taxable, tax), the amount paid and the balance due, each in integer minor units, exact decimal text and formatted text. Nothing is charged.',
    tag: 'Invoices',
    request,
    response: {
      contentType: 'application/json',
      description: 'The computed totals.',
      schema: TotalsReportSchema,
      example: buildTotalsReport(prepareInvoice(EXAMPLE_INVOICE)),
    },
    compute: (prepared) => buildTotalsReport(prepared),
  };

  const pdf: Operation<PreparedInvoice> = {
    method: 'POST',
    path: '/v1/invoice.pdf',
    operationId: 'v1_invoice_pdf',
    summary: 'Render an invoice PDF (paid, x402)',
    description: `Validates the invoice (400, never charged), then asks for payment over x402 v2 (402 with PAYMENT-REQUIRED), renders the PDF and settles the payment only after the PDF exists. The 200 carries the PDF and a PAYMENT-RESPONSE settlement receipt. ${PRINTING_NOTE}`,
    tag: 'Invoices',
    request,
    response: { contentType: 'application/pdf', description: 'The invoice PDF (may span several pages).' },
    // Not async: renderPdf's admission must throw before this returns (see PdfRenderer).
    handle(prepared, { signal, specimen = false }) {
      if (!renderer) throw renderingUnavailable();
      const started = performance.now();
      const printed = specimen ? asSpecimen(prepared) : prepared;
      return renderer.renderPdf(printed, { signal, specimen }).then(({ pdf, pages }) => {
        onRendered?.((performance.now() - started) / 1000, pages);
        return {
          contentType: 'application/pdf',
          headers: { 'Content-Disposition': 'inline; filename="invoice.pdf"', 'X-Page-Count': String(pages) },
          body: pdf,
        };
      });
    },
  };

  const schema: Operation = {
    method: 'GET',
    path: '/v1/schema',
    operationId: 'v1_schema',
    summary: 'Example invoice and field notes (free)',
    description:
      'An example invoice that validates (SPEC fields only), a real-world example (German, two VAT rates, discount, amount paid, ship-to, bank details), plus notes for every field (type, required, limits), the languages, the currencies, the totals formula and the e-invoice profiles (the fields each requires), generated from the same schema the service validates with.',
    tag: 'Invoices',
    document: true,
    response: { contentType: 'application/json', description: 'Example and field notes.' },
    handle: () => ({
      body: {
        example: EXAMPLE_INVOICE,
        example_real_world: EXAMPLE_REAL_WORLD_INVOICE,
        ...describeInvoiceFields(),
        e_invoice_profiles: describeProfiles(),
      },
    }),
  };

  return [pdf, validate, schema];
}
