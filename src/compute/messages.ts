import type { ErrorData } from '../errors.js';

/** One job for a compute worker: whatever its job module's `runJob` takes, as plain data. */
export interface Job {
  id: number;
  input: unknown;
}

/** The job's result (buffers the job module names are transferred, not copied), or its error as data. */
export type JobResult = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: ErrorData };

/** What a worker posts once, when its job module is loaded and it takes jobs (ComputePool.warm). */
export const WORKER_READY = 'ready';

/** What a job module exports: the function a worker runs for every job. */
export interface JobModule {
  runJob(input: unknown): { result: unknown; transfer: ArrayBuffer[] };
}
