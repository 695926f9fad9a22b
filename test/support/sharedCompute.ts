import { createOperationPool } from '../../src/app.js';
import type { ComputePool } from '../../src/compute/computePool.js';

/**
 * One compute pool per thread count for every app a test process starts (AppDependencies.compute):
 * each app started its own workers, 0.6 s of CPU each to load the operations (bundled) and up to
 * three an app (shared, and the paid and unpaid lanes on their first such body), while the files of
 * a group run one after another in one process. startTestApp's apps never closed their pools (it
 * closes the server only), so the idle workers of earlier apps stayed anyway; the pool's workers
 * keep the process alive only while they have a job. `threads` 0: none (bodies run inline).
 */
export function sharedComputePool(threads: number): ComputePool | undefined {
  if (threads <= 0) return undefined;
  let pool = pools.get(threads);
  if (!pool) pools.set(threads, (pool = createOperationPool(threads)));
  return pool;
}
const pools = new Map<number, ComputePool>();
