import * as v from 'valibot';
import { buildTotalsReport, TotalsReportSchema } from '../invoice/totalsReport.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import type { Issue } from '../errors.js';
import { taxInTaxCurrency } from '../invoice/taxCurrency.js';
import { DEFAULT_PROFILE, EINVOICE_PROFILES, PROFILES, type EInvoiceProfile } from './profiles.js';

/** What validate answers of a format's own request object (formats/format.ts OwnRequestObject.report), by profile. */
const OWN_REPORTS = EINVOICE_PROFILES.flatMap((profile) => {
  const report = PROFILES[profile].checks?.own?.report;
  return report ? [[profile, report] as const] : [];
});

/** The body of a 200 from POST /v1/e-invoice/validate. */
export const EInvoiceValidationSchema = v.object({
  valid: v.pipe(
    v.boolean(),
    v.description(
      'True when every rule the service checks for the profile passes: the paid e-invoice routes would accept this invoice.',
    ),
  ),
  profile: v.pipe(
    v.picklist(EINVOICE_PROFILES),
    v.description("The profile checked (the request's profile, default en16931)."),
  ),
  specification: v.pipe(
    v.string(),
    v.description('The specification identifier written into the XML (BT-24), e.g. urn:cen.eu:en16931:2017.'),
  ),
  business_process: v.pipe(
    v.nullable(v.string()),
    v.description('The business process written into the XML (BT-23); null when none.'),
  ),
  rule_sets: v.pipe(
    v.array(v.string()),
    v.description('The official rule sets whose rules the service checks for this profile, with their versions.'),
  ),
  issues: v.pipe(
    v.array(
      v.object({
        path: v.string(),
        code: v.pipe(
          v.string(),
          v.description('The official rule id, e.g. BR-S-02, BR-DE-15, PEPPOL-EN16931-R010, BR-FR-10.'),
        ),
        message: v.string(),
      }),
    ),
    v.description('Every rule the invoice breaks, with the request field to change.'),
  ),
  tax_currency: v.pipe(
    v.optional(
      v.object({
        code: v.string(),
        exchange_rate: v.number(),
        tax: v.pipe(v.string(), v.description('BT-111: the VAT total in the tax currency, exact decimal text.')),
      }),
    ),
    v.description(
      "Present when the request names tax_currency: the VAT total converted at the request's rate (BT-111), as the XML carries it.",
    ),
  ),
  totals: v.pipe(
    TotalsReportSchema,
    v.description('The totals, as POST /v1/invoice/validate answers them; the XML carries exactly these amounts.'),
  ),
  ...Object.fromEntries(OWN_REPORTS.map(([, report]) => [report.key, report.schema])),
});

export type EInvoiceValidation = v.InferOutput<typeof EInvoiceValidationSchema>;

export function buildEInvoiceValidation(
  prepared: PreparedInvoice,
  issues: Issue[],
  profile: EInvoiceProfile = DEFAULT_PROFILE,
  own?: unknown,
): EInvoiceValidation {
  const definition = PROFILES[profile];
  return {
    valid: issues.length === 0,
    profile,
    specification: definition.specification,
    business_process: prepared.invoice.business_process ?? definition.defaultBusinessProcess ?? null,
    rule_sets: [...definition.ruleSets],
    issues,
    ...(prepared.invoice.tax_currency
      ? {
          tax_currency: {
            ...prepared.invoice.tax_currency,
            tax: taxInTaxCurrency(prepared.totals, prepared.invoice.tax_currency),
          },
        }
      : {}),
    totals: buildTotalsReport(prepared),
    ...ownReport(prepared, profile, own),
  };
}

/** The format's report of its own request object, as a field of its own (a request checked without one: none). */
function ownReport(prepared: PreparedInvoice, profile: EInvoiceProfile, own: unknown): Record<string, unknown> {
  const report = PROFILES[profile].checks?.own?.report;
  return report && own !== undefined ? { [report.key]: report.build(prepared, own) } : {};
}
