import type { Issue } from '../../errors.js';
import type { InvoiceInput } from '../../invoice/schema.js';
import type { InboundInvoice } from './model.js';

/**
 * The hook for national rules (XRechnung BR-DE-*, France BR-FR-*, …) on an inbound invoice:
 * inspect runs every check listed here after the EN 16931 ones and reports its issues beside
 * them. Each check decides from the document (customization, countries) whether it applies.
 * National checks of this service's own invoices live in src/einvoice/; adding one here means
 * adapting it to the inbound model or to the JSON invoice it was turned into.
 */
export interface NationalRuleCheck {
  /** The rule set, e.g. "XRechnung 3.0". */
  name: string;
  applies(source: InboundInvoice): boolean;
  check(source: InboundInvoice, invoice: InvoiceInput): Issue[];
}

export const NATIONAL_RULE_CHECKS: NationalRuleCheck[] = [];
