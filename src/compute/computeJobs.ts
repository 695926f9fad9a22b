import * as v from 'valibot';
import { validationFailed } from '../errors.js';
import { HELPER_OPERATIONS } from '../helpers/index.js';
import type { OperationContext } from '../helpers/operation.js';
import { toIssues } from '../invoice/issues.js';
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
  ...HELPER_OPERATIONS.map((operation): [string, ComputeJob] => [
    operation.operationId,
    (body, context) => {
      const parsed = v.safeParse(operation.request, body, { abortEarly: false });
      if (!parsed.success) throw validationFailed(toIssues(parsed.issues));
      return operation.run(parsed.output, context);
    },
  ]),
]);
