import * as v from 'valibot';
import { validationFailed } from '../../../errors.js';
import type { PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import { prepareInvoice } from '../../../invoice/prepareInvoice.js';
import { InvoiceFieldsSchema } from '../../../invoice/schema.js';
import { VerifactuRequestField } from './fields.js';
import { profileRulesFailed } from '../../rulesFailed.js';
import { DEFAULT_SYSTEM } from './system.js';
import { checkVerifactuRequest, splitVerifactu, VERIFACTU_TITLE } from './request.js';

/**
 * The body of /v1/invoice.pdf and /v1/invoice/validate as published (OpenAPI, MCP input schemas):
 * the invoice plus the optional `verifactu` object. Documents only: prepareInvoiceWithVerifactu
 * takes `verifactu` off and validates the rest with InvoiceSchema (its due_date rule included), so
 * what is accepted is exactly what it was when the object was an unlisted key.
 */
export const InvoiceWithVerifactuSchema = v.strictObject(
  { ...InvoiceFieldsSchema.entries, verifactu: VerifactuRequestField },
  'unknown property',
);

/**
 * An invoice PDF for a Spanish issuer: POST /v1/invoice.pdf (and /v1/invoice/validate) with a
 * `verifactu` object checks it as the record route does (a 400 with AEAT's codes, before payment)
 * and prints AEAT's "QR tributario" at the top of page 1 (src/render/taxQrView.ts). The URL is
 * the record's: its nif, numserie, fecha and importe are the values the RegistroAlta of the same
 * request carries, whatever the moment each was made.
 */
export function prepareInvoiceWithVerifactu(body: unknown, context?: { now?: string }): PreparedInvoice {
  const { body: invoiceBody, raw } = splitVerifactu(body);
  if (raw === undefined) return prepareInvoice(body);
  const now = context?.now ? new Date(context.now) : new Date();
  // The QR depends on neither the generation time nor the SistemaInformatico: defaults serve.
  const checked = checkVerifactuRequest(
    { ...(invoiceBody as object), verifactu: raw },
    {
      system: DEFAULT_SYSTEM,
      environment: 'production',
      now,
    },
  );
  if (checked.issues.length > 0) throw profileRulesFailed(VERIFACTU_TITLE, checked.issues);
  if (checked.record.kind !== 'alta')
    throw validationFailed([
      {
        path: 'verifactu.record',
        code: 'verifactu_cancellation_pdf',
        message:
          'is cancellation: a cancelled invoice has no QR to print (ask POST /v1/e-invoice/verifactu.xml for its RegistroAnulacion)',
      },
    ]);
  return {
    ...checked.prepared,
    verifactuQr: { url: checked.record.qrUrl, verifactuMode: checked.fields.mode === 'verifactu' },
  };
}
