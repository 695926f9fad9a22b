import { EXAMPLE_VERIFACTU_REQUEST } from '../einvoice/formats/verifactu/example.js';
import { buildRecord } from '../einvoice/formats/verifactu/model.js';
import {
  checkVerifactuRequest,
  VERIFACTU_TITLE,
  type CheckedVerifactu,
} from '../einvoice/formats/verifactu/request.js';
import { DEFAULT_SYSTEM, type SistemaInformatico } from '../einvoice/formats/verifactu/system.js';
import { writeMessage } from '../einvoice/formats/verifactu/writer.js';
import * as v from 'valibot';
import { VerifactuFieldsSchema } from '../einvoice/formats/verifactu/fields.js';
import { InvoiceFieldsSchema, InvoiceSchema } from '../invoice/schema.js';
import { profileRulesFailed } from '../einvoice/rulesFailed.js';
import type { Operation } from './operation.js';

/**
 * Spain's VERI*FACTU record route (docs/e-invoices-spain.md): the invoice and its `verifactu` object
 * checked with AEAT's error codes on the compute pool (a 400 before any payment), then, once paid,
 * the RegFactuSistemaFacturacion message generated at that moment: FechaHoraHusoGenRegistro and the
 * huella are the paid call's, SistemaInformatico the server's (VERIFACTU_* settings).
 */
/** The invoice of /v1/invoice.pdf with its `verifactu` object. */
const VerifactuRequestSchema = v.pipe(
  v.strictObject(
    {
      ...InvoiceFieldsSchema.entries,
      verifactu: v.optional(
        v.pipe(VerifactuFieldsSchema, v.description("Spain's VERI*FACTU record fields; docs/e-invoices-spain.md.")),
      ),
    },
    'unknown property',
  ),
  ...(InvoiceSchema.pipe.slice(1) as []),
);

export function verifactuOperations(system: SistemaInformatico = DEFAULT_SYSTEM): Operation[] {
  const record: Operation<CheckedVerifactu> = {
    method: 'POST',
    path: '/v1/e-invoice/verifactu.xml',
    operationId: 'v1_e_invoice_verifactu_xml',
    summary: "Spain's VERI*FACTU billing record (RegistroAlta, chained by its huella) for AEAT (paid, x402)",
    description:
      "The invoice's billing record as AEAT's RegFactuSistemaFacturacion message (SuministroLR.xsd): a RegistroAlta (verifactu.record cancellation: a RegistroAnulacion) with FechaHoraHusoGenRegistro the moment it is generated (Spanish time) and its SHA-256 huella chained to verifactu.previous; verifactu.soap wraps it in AEAT's SOAP envelope. The invoice JSON of /v1/invoice.pdf in EUR, seller.vat_id ES + NIF, and the optional `verifactu` object: invoice_type F1-F3/R1-R5, correction, corrected_invoices, regime, vat_groups (S1, S2, N1, N2, E1-E8, surcharge_rate), tax IVA/IGIC/IPSI, previous {issuer_nif, invoice_number, issue_date, huella}. Before any payment the request is checked as AEAT would check the record (NIF check characters, the invoice type's conditions, qualifications and exemptions, rates, totals, the chain): a 400 einvoice_rules_failed lists every issue with its field and AEAT's error code, never charged. The service does not send the record to AEAT: the issuer sends it with its certificate (docs/e-invoices-spain.md). /v1/invoice.pdf with the same verifactu object prints the matching QR tributario.",
    tag: 'Invoices',
    request: {
      schema: VerifactuRequestSchema,
      example: EXAMPLE_VERIFACTU_REQUEST,
      parse: (body, context) => {
        const now = context?.now ? new Date(context.now) : new Date();
        const checked = checkVerifactuRequest(body, { system, environment: 'production', now });
        if (checked.issues.length > 0) throw profileRulesFailed(VERIFACTU_TITLE, checked.issues);
        return checked;
      },
    },
    response: { contentType: 'application/xml', description: 'The RegFactuSistemaFacturacion message, UTF-8.' },
    // Generated now, once paid: the record's moment is the call's, its software block the server's.
    handle: ({ prepared, fields }) => {
      const made = buildRecord(prepared, fields, {
        system,
        environment: fields.environment ?? 'production',
        now: new Date(),
      });
      const number = prepared.invoice.invoice_number.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 64);
      return {
        contentType: 'application/xml; charset=utf-8',
        body: Buffer.from(writeMessage([made], { soap: fields.soap ?? false })),
        headers: {
          'Content-Disposition': `attachment; filename="invoice-${number}-verifactu.xml"`,
          'X-Verifactu-Huella': made.huella,
        },
      };
    },
  };
  return [record];
}
