import * as v from 'valibot';
import { InputRejected, validationFailed, type Issue } from '../errors.js';
import { toIssues } from '../invoice/issues.js';
import { prepareInvoice, withSurcharges, type PreparedInvoice } from '../invoice/prepareInvoice.js';
import { InvoiceFieldsSchema } from '../invoice/schema.js';
import type { FormatModule, PrintingHook } from './formats/format.js';
import { FORMATS } from './formats/registry.js';
import { prepareProfiledEInvoice, type ProfiledInvoice } from './prepareEInvoice.js';

/**
 * The formats' printing hooks (formats/format.ts PrintingHook) on the invoice PDFs: a format's own
 * request object, beside the invoice of /v1/invoice.pdf (and its validate) or of
 * /v1/e-invoice/factur-x.pdf under any other profile, is parsed, checked with the invoice before any
 * payment and adds what the format prints (Spain: the QR tributario at the top of page 1, the
 * equivalence surcharge). Nothing here names a format.
 */
type Printing = Extract<(typeof FORMATS)[number], { printing: object; checks: { own: object } }>;

interface Printer {
  id: string;
  field: v.GenericSchema;
  hook: PrintingHook;
}

const PRINTERS: readonly Printer[] = (FORMATS as readonly FormatModule[]).flatMap((format) =>
  format.printing && format.checks?.own
    ? [{ id: format.id, field: format.checks.own.field, hook: format.printing }]
    : [],
);

/** The request objects that print, each named after its format, as the invoice routes publish them. */
const PRINTING_REQUEST_FIELDS = Object.fromEntries(
  FORMATS.flatMap((format) =>
    'printing' in format && 'checks' in format && 'own' in format.checks ? [[format.id, format.checks.own.field]] : [],
  ),
) as { [F in Printing as F['id']]: F['checks']['own']['field'] };

/**
 * The body of /v1/invoice.pdf and /v1/invoice/validate as published (OpenAPI, MCP input schemas):
 * the invoice plus the formats' printing objects. Documents only: preparePrintedInvoice takes the
 * objects off and validates the rest with InvoiceSchema (its due_date rule included).
 */
export const InvoicePdfRequestSchema = v.strictObject(
  { ...InvoiceFieldsSchema.entries, ...PRINTING_REQUEST_FIELDS },
  'unknown property',
);

/** The routes' descriptions: what each printing object prints. */
export const PRINTING_NOTE = `Beside the invoice, a format's object prints on the PDF whatever the profile: ${PRINTERS.map(
  (printer) => `${printer.id} (${printer.hook.summary})`,
).join('; ')}. It is checked before any payment (a 400 naming the field).`;

interface TakenObject {
  printer: Printer;
  value: unknown;
}

const isObject = (body: unknown): body is Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body);

/**
 * The printing objects taken off a body and parsed (issues at `<id>.…`); `keep` names a format
 * whose object stays (the request's own profile: its checks take it).
 */
function takeObjects(body: unknown, keep?: unknown): { rest: unknown; taken: TakenObject[]; issues: Issue[] } {
  const present = isObject(body) ? PRINTERS.filter((printer) => printer.id in body && printer.id !== keep) : [];
  if (present.length === 0) return { rest: body, taken: [], issues: [] };
  const rest = { ...(body as Record<string, unknown>) };
  const taken: TakenObject[] = [];
  const issues: Issue[] = [];
  for (const printer of present) {
    const parsed = v.safeParse(printer.field, rest[printer.id] ?? {}, { abortEarly: false });
    delete rest[printer.id];
    if (parsed.success) taken.push({ printer, value: parsed.output });
    else
      issues.push(
        ...toIssues(parsed.issues).map((issue) => ({
          ...issue,
          path: issue.path ? `${printer.id}.${issue.path}` : printer.id,
        })),
      );
  }
  return { rest, taken, issues };
}

/** The invoice prepared by `prepare`, every issue of a malformed invoice and of the objects in one 400. */
function prepareWith<T>(prepare: () => T, objectIssues: Issue[]): T {
  let prepared: T;
  try {
    prepared = prepare();
  } catch (error) {
    if (error instanceof InputRejected && objectIssues.length > 0)
      throw new InputRejected(error.code, error.message, [...objectIssues, ...(error.issues ?? [])]);
    throw error;
  }
  if (objectIssues.length > 0) throw validationFailed(objectIssues);
  return prepared;
}

/** What the objects print, added to the invoice (a hook's refusal is thrown: a 400 before payment). */
function printed(
  prepared: PreparedInvoice,
  taken: TakenObject[],
  at: Date,
  refuseSurcharges: boolean,
): PreparedInvoice {
  let result = prepared;
  for (const { printer, value } of taken) {
    const { pageTopCode, surcharges = [] } = printer.hook.print(prepared, value, at);
    if (refuseSurcharges && surcharges.length > 0)
      throw validationFailed(
        surcharges.map((surcharge) => ({
          path: surcharge.path,
          code: 'surcharge_not_in_en16931',
          message:
            "is a surcharge on top of VAT, which the Factur-X attachment (EN 16931's XML) cannot carry, so the printed total and the XML's would differ: ask POST /v1/invoice.pdf for this invoice",
        })),
      );
    result = withSurcharges(pageTopCode ? { ...result, pageTopCode } : result, surcharges);
  }
  return result;
}

const momentOf = (now: string | undefined): Date => (now ? new Date(now) : new Date());

/** POST /v1/invoice.pdf and its validate: the invoice, with what the formats' objects print. */
export function preparePrintedInvoice(body: unknown, context?: { now?: string }): PreparedInvoice {
  const { rest, taken, issues } = takeObjects(body);
  if (taken.length === 0 && issues.length === 0) return prepareInvoice(body);
  const prepared = prepareWith(() => prepareInvoice(rest), issues);
  return printed(prepared, taken, momentOf(context?.now), false);
}

/**
 * POST /v1/e-invoice/factur-x.pdf: the request checked under its profile (EN 16931's and the
 * profile's rules, a 400 as before), then the other formats' printing objects; a surcharge on top of
 * VAT is refused, since the embedded XML could not carry it.
 */
export function preparePrintedEInvoice(body: unknown, context?: { now?: string }): ProfiledInvoice {
  const { rest, taken, issues } = takeObjects(body, isObject(body) ? body.profile : undefined);
  if (taken.length === 0 && issues.length === 0) return prepareProfiledEInvoice(body, 'factur-x');
  const profiled = prepareWith(() => prepareProfiledEInvoice(rest, 'factur-x'), issues);
  return { ...profiled, prepared: printed(profiled.prepared, taken, momentOf(context?.now), true) };
}
