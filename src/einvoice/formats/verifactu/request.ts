import * as v from 'valibot';
import { InputRejected, validationFailed, type Issue } from '../../../errors.js';
import { toIssues } from '../../../invoice/issues.js';
import { prepareInvoice, type PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import { checkRecord } from './checks.js';
import { VerifactuFieldsSchema, type VerifactuFields } from './fields.js';
import { buildRecord, type BillingRecord, type RecordSettings } from './model.js';
import { writeMessage } from './writer.js';
import { DEFAULT_SYSTEM } from './system.js';

/**
 * The profile verifactu's part of a request: the invoice of /v1/invoice.pdf and its `verifactu`
 * object (issues at `verifactu.…`), the billing record built as of `settings.now` and every AEAT
 * rule it breaks. The free validate answers the issues and the huella; the paid route refuses any
 * (a 400 before payment) and answers the message.
 */
export interface CheckedVerifactu {
  prepared: PreparedInvoice;
  fields: VerifactuFields;
  record: BillingRecord;
  issues: Issue[];
}

function splitVerifactu(invoiceBody: unknown): { body: unknown; raw: unknown } {
  if (typeof invoiceBody !== 'object' || invoiceBody === null || Array.isArray(invoiceBody))
    return { body: invoiceBody, raw: undefined };
  const { verifactu: raw, ...body } = invoiceBody as Record<string, unknown>;
  return { body, raw };
}

/** The `verifactu` object parsed, its issues at `verifactu.…`. */
function parseVerifactuFields(raw: unknown): { fields: VerifactuFields; issues: Issue[] } {
  const parsed = v.safeParse(VerifactuFieldsSchema, raw ?? {}, { abortEarly: false });
  if (parsed.success) return { fields: parsed.output, issues: [] };
  const issues = toIssues(parsed.issues).map((issue) => ({
    ...issue,
    path: issue.path ? `verifactu.${issue.path}` : 'verifactu',
  }));
  return { fields: v.parse(VerifactuFieldsSchema, {}), issues };
}

export const VERIFACTU_TITLE = 'Spain VERI*FACTU billing record (RegistroAlta)';

/** The Spanish calendar day of an instant (FechaExpedicionFactura may not be later, error 1112). */
function spanishToday(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid' }).format(now);
}

/**
 * The request checked: the invoice, its `verifactu` object, the record and every AEAT rule it
 * breaks (returned, not thrown). A body that is no valid invoice, or a malformed `verifactu`
 * object, is thrown with every issue of both.
 */
export function checkVerifactuRequest(invoiceBody: unknown, settings: RecordSettings): CheckedVerifactu {
  const { body, raw } = splitVerifactu(invoiceBody);
  const spanish = parseVerifactuFields(raw);
  let prepared: PreparedInvoice;
  try {
    prepared = prepareInvoice(body);
  } catch (error) {
    if (error instanceof InputRejected && spanish.issues.length > 0)
      throw new InputRejected(error.code, error.message, [...spanish.issues, ...(error.issues ?? [])]);
    throw error;
  }
  if (spanish.issues.length > 0) throw validationFailed(spanish.issues);
  return checkPrepared(prepared, spanish.fields, settings);
}

function checkPrepared(prepared: PreparedInvoice, fields: VerifactuFields, settings: RecordSettings): CheckedVerifactu {
  const record = buildRecord(prepared, fields, settings);
  const issues = checkRecord(prepared, fields, record, spanishToday(settings.now));
  return { prepared, fields, record, issues };
}

/** The message of one checked request: its record, in the SOAP envelope when the request asks. */
export function verifactuXml(checked: CheckedVerifactu): string {
  return writeMessage([checked.record], { soap: checked.fields.soap ?? false });
}

/**
 * The module's checks.own (format.ts): the record built as of the check (the moment of the request)
 * and every AEAT rule it breaks; `own` travels to the writer (which generates the record at its own
 * moment) and to validate's report. SistemaInformatico is not part of any check or of the huella.
 */
export function checkVerifactuObject(
  prepared: PreparedInvoice,
  fields: VerifactuFields,
  at: Date,
): { issues: Issue[]; own: CheckedVerifactu } {
  const checked = checkPrepared(prepared, fields, { system: DEFAULT_SYSTEM, environment: 'production', now: at });
  return { issues: checked.issues, own: checked };
}

export const VerifactuReportSchema = v.object({
  record: v.picklist(['registration', 'cancellation']),
  invoice_type: v.nullable(v.string()),
  cuota_total: v.nullable(v.string()),
  importe_total: v.nullable(v.string()),
  generated_at: v.string(),
  huella: v.string(),
  previous_huella: v.nullable(v.string()),
  qr_url: v.nullable(v.string()),
});

/** What validate answers for profile verifactu: the record's values as of the request, its huella and QR URL. */
export function verifactuReport({ record }: CheckedVerifactu): v.InferOutput<typeof VerifactuReportSchema> {
  const alta = record.kind === 'alta' ? record : undefined;
  return {
    record: alta ? 'registration' : 'cancellation',
    invoice_type: alta?.type ?? null,
    cuota_total: alta?.cuotaTotal ?? null,
    importe_total: alta?.importeTotal ?? null,
    generated_at: record.generatedAt,
    huella: record.huella,
    previous_huella: record.previous?.huella ?? null,
    qr_url: alta?.qrUrl ?? null,
  };
}
