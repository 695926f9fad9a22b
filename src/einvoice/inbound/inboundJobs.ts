import { inspectEInvoice } from './inspect.js';
import { compareTotals } from './inboundTotals.js';
import { customizationName } from './customizations.js';
import { readInbound, type InboundFormat } from './readInbound.js';

/**
 * The inbound routes' CPU work, run on the compute pool (compute/computeJobs.ts): reading XML and
 * PDFs never happens on the event loop. Keys are not operationIds, so offloadedRoutes.ts leaves
 * the routes' own byte bodies alone.
 */
export interface InboundJobInput {
  bytes: Uint8Array;
  format: InboundFormat;
}

export const INBOUND_JOBS = {
  einvoice_inspect: (body: unknown) => {
    const { bytes, format } = body as InboundJobInput;
    return inspectEInvoice(bytes, format);
  },
  /** What render.pdf prints: the document, its totals comparison and notes (InboundRender without the locale). */
  einvoice_read: (body: unknown) => {
    const { bytes, format } = body as InboundJobInput;
    const { invoice } = readInbound(bytes, format);
    const name = customizationName(invoice.customization);
    return {
      invoice,
      totals: compareTotals(invoice),
      notes: name === null ? [`BT-24 ${JSON.stringify(invoice.customization)}: read as plain EN 16931.`] : [],
    };
  },
} as const;
