import { prepareEInvoice } from '../einvoice/prepareEInvoice.js';
import { prepareInvoice, type PreparedInvoice } from '../invoice/prepareInvoice.js';

/**
 * The output formats a batch can be made in, each with the checks of its single route (the plain
 * PDF's for pdf, EN 16931's for the e-invoices) and its file name ending. A new format (a national
 * profile) is one more row.
 */
export const BATCH_FORMATS = {
  pdf: { prepare: prepareInvoice, suffix: '.pdf', mimeType: 'application/pdf', singleRoute: '/v1/invoice.pdf' },
  'factur-x': { prepare: prepareEInvoice, suffix: '-factur-x.pdf', mimeType: 'application/pdf', singleRoute: '/v1/e-invoice/factur-x.pdf' },
  cii: { prepare: prepareEInvoice, suffix: '-cii.xml', mimeType: 'application/xml', singleRoute: '/v1/e-invoice/cii.xml' },
  ubl: { prepare: prepareEInvoice, suffix: '-ubl.xml', mimeType: 'application/xml', singleRoute: '/v1/e-invoice/ubl.xml' },
} as const satisfies Record<string, { prepare(body: unknown): PreparedInvoice; suffix: string; mimeType: string; singleRoute: string }>;

export type BatchFormat = keyof typeof BATCH_FORMATS;
export const BATCH_FORMAT_NAMES = Object.keys(BATCH_FORMATS) as BatchFormat[];
