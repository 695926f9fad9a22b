import { COMPUTE_JOBS } from '../compute/computeJobs.js';
import type { ComputePool } from '../compute/computePool.js';
import { operationContextAt } from '../helpers/operation.js';
import { isPaid, type PricedRoute } from './routeSpec.js';

/**
 * The free routes whose work is pure CPU (validate, the four helpers: compute/computeJobs.ts) moved
 * onto the compute pool's worker threads: over HTTP their body arrives as text and is parsed,
 * validated and computed there, and the answer comes back as JSON bytes, identical to the inline
 * route's. Everything else (paid routes, an operator's priced helper) stays as it is.
 */
export function offloadedRoutes(routes: readonly PricedRoute[], pool: ComputePool, now: () => Date): PricedRoute[] {
  return routes.map((route) =>
    route.request && !isPaid(route) && COMPUTE_JOBS.has(route.operationId)
      ? {
          ...route,
          request: { ...route.request, parsesText: true, parse: (body: unknown) => body, resolve: undefined },
          handle: async (body: unknown) => ({
            contentType: 'application/json; charset=utf-8',
            body: await pool.run(route.operationId, body, operationContextAt(now())),
          }),
        }
      : route,
  );
}
