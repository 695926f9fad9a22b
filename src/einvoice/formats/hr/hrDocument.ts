import type { PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import type { VatCategory } from '../../../invoice/vatCategories.js';
import type { EInvoiceDocument } from '../../document.js';

/**
 * Croatia's HR-CIUS 2025 with the HR extension (eRačun, Porezna uprava), UBL only: its
 * specification identifier (HR-BR-5), process P1…P12 (HR-BR-34), issue time (HR-BR-2), the operator
 * as SellerContact (HR-BR-37, HR-BR-9), the HR tax category names (HR-BR-CL-1, required on exempt
 * and out-of-scope lines by HR-BR-16) with the exemption reason on such lines (HR-BR-36), and the
 * KPD item classification (HR-BR-25). Rule texts: ../shared/einvoice/croatia (VERSION 1.0.4).
 */
export const HR_SPECIFICATION =
  'urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.hr:cius-2025:1.0#conformant#urn:mfin.gov.hr:ext-2025:1.0';
export const HR_DEFAULT_PROCESS = 'P1';

/** HR-TB-2: the Croatian tax category names. */
const HR_RATE_NAMES: Record<string, string> = { '25': 'HR:PDV25', '13': 'HR:PDV13', '5': 'HR:PDV5' };
const HR_CATEGORY_NAMES: Partial<Record<VatCategory, string>> = {
  Z: 'HR:Z',
  E: 'HR:E',
  AE: 'HR:AE',
  K: 'HR:K',
  G: 'HR:G',
  O: 'HR:O',
};

export const hrTaxName = (category: VatCategory, rate: string | undefined): string | undefined =>
  category === 'S' ? HR_RATE_NAMES[rate ?? ''] : HR_CATEGORY_NAMES[category];

export function adaptHr(document: EInvoiceDocument, { invoice }: PreparedInvoice): EInvoiceDocument {
  return {
    ...document,
    lines: document.lines.map((line, at) => {
      const classification = invoice.line_items[at]?.item_classification;
      const exempt = line.category === 'E' || line.category === 'O';
      return {
        ...line,
        extra: {
          ...line.extra,
          taxName: hrTaxName(line.category, line.rate),
          ...(exempt && invoice.tax_exemption_reason ? { exemptionReason: invoice.tax_exemption_reason } : {}),
          ...(classification ? { classification } : {}),
        },
      };
    }),
    extra: {
      ...document.extra,
      issueTime: invoice.issue_time,
      operator: invoice.operator ? { name: invoice.operator.name, id: invoice.operator.oib } : undefined,
    },
  };
}
