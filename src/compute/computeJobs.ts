import { checkEInvoice } from '../einvoice/prepareEInvoice.js';
import { buildEInvoiceValidation } from '../einvoice/validationReport.js';
import { HELPER_OPERATIONS } from '../helpers/index.js';
import type { OperationContext } from '../helpers/operation.js';
import { parseOrReject } from '../invoice/issues.js';
import { prepareInvoice } from '../invoice/prepareInvoice.js';
import { buildTotalsReport } from '../invoice/totalsReport.js';

/**
 * The free routes' CPU work, by operationId: validation and computation of a parsed JSON body, as
 * the routes do it inline (http/routes/invoiceRoutes.ts, helperRoutes.ts); a worker thread runs it
 * off the event loop (computePool.ts). Throws InputRejected with every issue, like the routes.
 */
export type ComputeJob = (body: unknown, context: OperationContext) => unknown;

export const COMPUTE_JOBS: ReadonlyMap<string, ComputeJob> = new Map<string, ComputeJob>([
  ['v1_invoice_validate', (body) => buildTotalsReport(prepareInvoice(body))],
  // The e-invoice check with its national rules (http/routes/eInvoiceRoutes.ts, validate).
  [
    'v1_e_invoice_validate',
    (body) => {
      const { prepared, issues, profile } = checkEInvoice(body);
      return buildEInvoiceValidation(prepared, issues, profile);
    },
  ],
  ...HELPER_OPERATIONS.map((operation): [string, ComputeJob] => [operation.operationId, (body, context) => operation.run(parseOrReject(operation.request, body), context)]),
]);
