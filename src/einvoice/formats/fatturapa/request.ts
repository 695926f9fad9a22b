import * as v from 'valibot';
import type { Issue } from '../../../errors.js';
import { minorToDecimal } from '../../../invoice/money.js';
import { decimalToString } from '../../../invoice/decimal.js';
import type { PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import type { WrittenFile } from '../format.js';
import type { FatturaPAFields } from './fields.js';
import { buildFatturaModel, type FatturaModel } from './model.js';
import { modelChecks, requestChecks } from './sdiChecks.js';
import { fatturaFileName } from './transmission.js';
import { buildFatturaPA, documentTypeOf } from './writer.js';

/**
 * The profile fatturapa's part of an e-invoice request: the SDI's checks of the invoice with its
 * `fatturapa` object (parsed by the generic check, prepareEInvoice.ts), the file, and the amounts
 * validate answers. FatturaPA is its own format, not EN 16931: these are its only checks.
 */

/** The `fatturapa` fields of a request checked under profile fatturapa (its `own`). */
export function fatturaPAFieldsOf(checked: { profile: string; own?: unknown }): FatturaPAFields | undefined {
  return checked.profile === 'fatturapa' ? (checked.own as FatturaPAFields) : undefined;
}

/** The module's checks.own: every SDI control broken (returned, not thrown), the parsed fields kept as `own`. */
export function checkFatturaPAObject(
  prepared: PreparedInvoice,
  fields: FatturaPAFields,
): { issues: Issue[]; own: FatturaPAFields } {
  return { issues: checkFatturaPA(prepared, fields), own: fields };
}

/** Every SDI control the request breaks (empty: the paid route would write the file). */
function checkFatturaPA(prepared: PreparedInvoice, fields: FatturaPAFields): Issue[] {
  const issues = requestChecks(prepared, fields);
  const model = buildFatturaModel(prepared, fields);
  checkedModels.set(prepared, { fields, model });
  return [...issues, ...modelChecks(prepared, fields, model)];
}

/**
 * The model checkFatturaPA built and checked, kept for the file or report of the same request so
 * that it is not built twice (a 200-line invoice's model is a tenth of the route's work). Each kept
 * model is handed out once (takeModel forgets it) and only after modelChecks, which only reads it:
 * whoever takes it owns a fresh object, as buildFatturaModel's own callers do. A prepared invoice
 * or fields object other than the checked one (asSpecimen's copy) builds its own.
 */
const checkedModels = new WeakMap<PreparedInvoice, { fields: FatturaPAFields; model: FatturaModel }>();

function takeModel(prepared: PreparedInvoice, fields: FatturaPAFields): FatturaModel {
  const kept = checkedModels.get(prepared);
  checkedModels.delete(prepared);
  return kept?.fields === fields ? kept.model : buildFatturaModel(prepared, fields);
}

/**
 * The FatturaPA file of a checked request with the name the SDI expects. An FPA12 file must be
 * signed by its sender before the SDI takes it; the service does not sign (signatureRequired says so).
 */
export function produceFatturaPA(
  prepared: PreparedInvoice,
  fields: FatturaPAFields,
): { xml: Buffer; fileName: string; signatureRequired: boolean } {
  const model = takeModel(prepared, fields);
  return {
    xml: Buffer.from(buildFatturaPA(prepared, fields, model), 'utf8'),
    fileName: fatturaFileName(prepared.invoice.seller, prepared.invoice.invoice_number, fields),
    signatureRequired: fields.transmission_format === 'FPA12',
  };
}

/** The profile's title, in its registry entry and in its refusals. */
export const FATTURAPA_TITLE = 'Italy FatturaPA 1.2.3 (FPR12, FPA12 on request)';

/** The module's writer: the file, its SDI name, and the header saying an FPA12 must be signed. */
export function writeFatturaPAFile(prepared: PreparedInvoice, fields: FatturaPAFields): WrittenFile {
  const { xml, fileName, signatureRequired } = produceFatturaPA(prepared, fields);
  return {
    file: xml,
    fileName,
    ...(signatureRequired
      ? {
          headers: {
            'X-FatturaPA-Signature':
              'required: the SDI accepts FPA12 only signed by the sender (CAdES-BES .p7m or XAdES-BES)',
          },
        }
      : {}),
  };
}

export const FATTURAPA_ROUTE_DESCRIPTION =
  "The invoice as Italy's FatturaPA 1.2.3 XML: FPR12 (businesses and private persons) or, with fatturapa.transmission_format FPA12, a public administration's (which the SDI accepts only signed by the sender: the answer's X-FatturaPA-Signature header says so; the service does not sign). Document types TD01, TD04 (credit note; default for document_type credit_note), TD24. Profile fatturapa is implied. The optional `fatturapa` object holds what FatturaPA needs beyond the invoice JSON: recipient_code / recipient_pec, regime_fiscale, codici fiscali, natura / line_natura for 0 % lines with their legal reference, stamp_duty, withholding, pension_fund, payment_method / payment_terms, transport_documents, transmitter and progressive. Before any payment the request is checked as the SDI would check the file (the schema, partita IVA and codice fiscale check characters, recipient code, Natura on every 0 % line and none on a taxed one, each DatiRiepilogo against its lines, Imposta, PrezzoTotale): a 400 einvoice_rules_failed lists every issue with its field and the SDI control code (00200, 00301, 00400, …), never charged. Content-Disposition names the file as the SDI expects (IT + transmitter id + _ + progressive). The service does not transmit to the SDI: send the file through your accredited channel (docs/e-invoices-italy.md).";

export const FatturaPAReportSchema = v.object({
  file_name: v.string(),
  transmission_format: v.string(),
  document_type: v.string(),
  summaries: v.array(
    v.object({ rate: v.string(), natura: v.nullable(v.string()), taxable: v.string(), tax: v.string() }),
  ),
  pension_fund: v.nullable(v.object({ type: v.string(), base: v.string(), amount: v.string() })),
  withholding: v.nullable(v.object({ type: v.string(), base: v.string(), amount: v.string() })),
  stamp_duty: v.nullable(v.string()),
  total: v.string(),
  payable: v.string(),
});

/** What validate answers for profile fatturapa: the file name and every amount the XML will carry. */
export function fatturaPAReport(
  prepared: PreparedInvoice,
  fields: FatturaPAFields,
): v.InferOutput<typeof FatturaPAReportSchema> {
  const model: FatturaModel = takeModel(prepared, fields);
  const money = (minor: bigint) => minorToDecimal(minor, model.digits);
  return {
    file_name: fatturaFileName(prepared.invoice.seller, prepared.invoice.invoice_number, fields),
    transmission_format: fields.transmission_format,
    document_type: documentTypeOf(prepared, fields),
    summaries: model.summaries.map((summary) => ({
      rate: decimalToString(summary.rate),
      natura: summary.natura ?? null,
      taxable: money(summary.taxable),
      tax: money(summary.tax),
    })),
    pension_fund: model.pensionFund
      ? { type: model.pensionFund.type, base: money(model.pensionFund.base), amount: money(model.pensionFund.amount) }
      : null,
    withholding: model.withholding
      ? { type: model.withholding.type, base: money(model.withholding.base), amount: money(model.withholding.amount) }
      : null,
    stamp_duty: model.stampDuty ? '2.00' : null,
    total: money(model.total),
    payable: money(model.payable),
  };
}
