import { parentPort } from 'node:worker_threads';
import * as v from 'valibot';
import { AppError } from '../../errors.js';
import { toIssues } from '../../invoice/issues.js';
import { HELPER_OPERATIONS } from '../index.js';
import type { Job, JobResult } from './messages.js';

/**
 * Runs the helper operations' CPU work (schema validation and the computation) off the event loop
 * that serves every request (operationPool.ts). Only plain data crosses: valibot issues become our
 * Issue shape here, a domain error its code, message and issues.
 */
const operations = new Map(HELPER_OPERATIONS.map((operation) => [operation.operationId, operation]));

parentPort!.on('message', (job: Job) => {
  let result: JobResult;
  try {
    const operation = operations.get(job.operationId);
    if (!operation) throw new Error(`unknown operation ${job.operationId}`);
    const parsed = v.safeParse(operation.request, job.body, { abortEarly: false });
    if (!parsed.success) result = { id: job.id, ok: false, issues: toIssues(parsed.issues) };
    else if (job.kind === 'check') result = { id: job.id, ok: true, value: null };
    else result = { id: job.id, ok: true, value: JSON.stringify(operation.run(parsed.output, { today: job.today })) };
  } catch (error) {
    const { name, message, code, issues } = error as AppError;
    result = { id: job.id, ok: false, error: { name, message, ...(error instanceof AppError ? { code, ...(issues ? { issues } : {}) } : {}) } };
  }
  parentPort!.postMessage(result);
});
