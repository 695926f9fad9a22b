import * as v from 'valibot';
import { E_INVOICE_INVOICE_FIELDS } from '../../../invoice/eInvoiceFields.js';
import { LineItemSchema } from '../../../invoice/lineItemSchema.js';
import type { InvoiceInput } from '../../../invoice/schema.js';
import type { InboundInvoice } from '../../inbound/model.js';
import { otherValue } from '../../inbound/otherValue.js';
import { jsonLineSources } from '../../inbound/takeIntoLines.js';

/**
 * A received HR-CIUS document's own fields in the JSON invoice (toInvoiceJson reads what EN 16931
 * shares), so that inspect checks the hr profile's rules on what the document states and a re-issue
 * writes them again: the issue time (HR-BT-2), the operator and their OIB (HR-BT-4/5, the seller's
 * contact ID and name as hrDocument.ts writes them) and each line's KPD classification (BT-158, CG).
 * A value the JSON field refuses stays shown from the document only.
 */
export function hrInboundFields(document: InboundInvoice, invoice: InvoiceInput): InvoiceInput {
  const value = (path: string) => otherValue(document, path);
  const time = value('IssueTime');
  const operator = {
    name: value('AccountingSupplierParty/SellerContact/Name'),
    oib: value('AccountingSupplierParty/SellerContact/ID'),
  };
  const sources = jsonLineSources(document);
  return {
    ...invoice,
    ...(v.is(E_INVOICE_INVOICE_FIELDS.issue_time, time) ? { issue_time: time } : {}),
    ...(v.is(E_INVOICE_INVOICE_FIELDS.operator, operator) ? { operator } : {}),
    line_items: invoice.line_items.map((line, at) => {
      const source = sources[at];
      const kpd = source && 'facts' in source ? source.facts.find((fact) => /^CG: /.test(fact.value)) : undefined;
      const classification = kpd && { scheme: 'CG', code: kpd.value.slice('CG: '.length) };
      return v.is(LineItemSchema.entries.item_classification, classification)
        ? { ...line, item_classification: classification }
        : line;
    }),
  };
}
