import * as v from 'valibot';
import { buildTotalsReport, TotalsReportSchema } from '../invoice/totalsReport.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import type { Issue } from '../errors.js';
import { EN16931_SPECIFICATION } from './document.js';

/** The body of a 200 from POST /v1/e-invoice/validate. */
export const EInvoiceValidationSchema = v.object({
  valid: v.pipe(v.boolean(), v.description('True when every EN 16931 rule the service checks passes: the paid e-invoice routes would accept this invoice.')),
  specification: v.pipe(v.literal(EN16931_SPECIFICATION), v.description('The EN 16931 specification identifier written into the XML (BT-24).')),
  issues: v.pipe(
    v.array(v.object({ path: v.string(), code: v.pipe(v.string(), v.description('The EN 16931 rule id, e.g. BR-S-02.')), message: v.string() })),
    v.description('Every EN 16931 rule the invoice breaks, with the request field to change.'),
  ),
  totals: v.pipe(TotalsReportSchema, v.description('The totals, as POST /v1/invoice/validate answers them; the XML carries exactly these amounts.')),
});

export type EInvoiceValidation = v.InferOutput<typeof EInvoiceValidationSchema>;

export function buildEInvoiceValidation(prepared: PreparedInvoice, issues: Issue[]): EInvoiceValidation {
  return { valid: issues.length === 0, specification: EN16931_SPECIFICATION, issues, totals: buildTotalsReport(prepared) };
}
