import * as v from 'valibot';
import { buildTotalsReport, TotalsReportSchema } from '../invoice/totalsReport.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import type { Issue } from '../errors.js';
import type { FatturaPAFields } from './formats/fatturapa/fields.js';
import { fatturaPAReport, FatturaPAReportSchema } from './formats/fatturapa/request.js';
import { taxInTaxCurrency } from './formats/pint/taxCurrency.js';
import { DEFAULT_PROFILE, EINVOICE_PROFILES, PROFILES, type EInvoiceProfile } from './profiles.js';

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
  format_amounts: v.optional(
    v.pipe(
      v.record(v.string(), v.string()),
      v.description(
        'Profile ksef: the FA(3) amounts as the XML writes them, by element (P_13_1, P_14_1, P_14_1W, …, P_15); for a ZAL the advance received, shared among the rates.',
      ),
    ),
  ),
  // FatturaPA's report is structured (per rate and Natura, the SDI file name), more than a flat
  // element-to-amount record like format_amounts can carry, so it keeps its own object.
  fatturapa: v.optional(
    v.pipe(
      FatturaPAReportSchema,
      v.description(
        'Profile fatturapa: the SDI file name and the amounts of the FatturaPA (DatiRiepilogo per rate and Natura, pension fund, withholding, stamp duty, ImportoTotaleDocumento, ImportoPagamento), exactly as the XML carries them.',
      ),
    ),
  ),
});

export type EInvoiceValidation = v.InferOutput<typeof EInvoiceValidationSchema>;

export function buildEInvoiceValidation(
  prepared: PreparedInvoice,
  issues: Issue[],
  profile: EInvoiceProfile = DEFAULT_PROFILE,
  own: { formatAmounts?: Record<string, string>; fatturapa?: FatturaPAFields } = {},
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
    ...(own.formatAmounts ? { format_amounts: own.formatAmounts } : {}),
    ...(own.fatturapa ? { fatturapa: fatturaPAReport(prepared, own.fatturapa) } : {}),
  };
}
