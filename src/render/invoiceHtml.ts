import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import type { InvoiceTemplates } from './templates.js';

/**
 * The filled, self-contained HTML of an invoice, exactly what Chromium prints. For previews and
 * the golden snapshot tests.
 */
export function renderInvoiceHtml(prepared: PreparedInvoice, templates: InvoiceTemplates): string {
  return templates.page(templates.view(prepared));
}
