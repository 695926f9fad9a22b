import { parentPort } from 'node:worker_threads';
import { AppError, bodyIsAnArray } from '../errors.js';
import { COMPUTE_JOBS } from './computeJobs.js';
import { lowerThisThreadsPriority } from './lowestPriority.js';
import type { Job, JobFailure, JobResult } from './messages.js';
import { parseStrictJson } from './strictJson.js';

/**
 * A compute worker (computePool.ts): parses, validates and computes free requests off the event
 * loop, at the lowest CPU priority, and answers JSON bytes. Only plain data crosses the thread.
 */
lowerThisThreadsPriority();
const encoder = new TextEncoder();

parentPort!.on('message', (job: Job) => {
  let result: JobResult;
  try {
    const compute = COMPUTE_JOBS.get(job.operationId);
    if (!compute) throw new Error(`no compute job ${job.operationId}`);
    const body = 'text' in job.input ? parseStrictJson(job.input.text) : job.input.value;
    // The router's check for bodies it parses itself (router.ts).
    if (Array.isArray(body)) throw bodyIsAnArray();
    result = { id: job.id, ok: true, json: encoder.encode(JSON.stringify(compute(body, job.context))) };
  } catch (error) {
    result = { id: job.id, ok: false, failure: failureOf(error) };
  }
  parentPort!.postMessage(result, result.ok ? [result.json.buffer as ArrayBuffer] : []);
});

function failureOf(error: unknown): JobFailure {
  const { name, message, stack, status } = error as Error & { status?: number };
  const failure: JobFailure = { name, message, ...(stack ? { stack } : {}), ...(typeof status === 'number' ? { status } : {}) };
  if (error instanceof AppError) return { ...failure, code: error.code, ...(error.issues ? { issues: error.issues } : {}) };
  return failure;
}
