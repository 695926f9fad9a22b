import { operationList } from './operationList.js';
import {
  runEnvelopeJob,
  runOperationJob,
  type EnvelopeJob,
  type EnvelopeJobResult,
  type OperationJob,
  type OperationJobResult,
} from './operationJobs.js';

/**
 * The compute workers' job module (compute/computeWorker.ts loads it by URL): the operation list's
 * parse and compute, by operationId, derived from the one list.
 */
const OPERATIONS = new Map(operationList().map((operation) => [operation.operationId, operation]));

export function runJob(job: OperationJob | EnvelopeJob): {
  result: OperationJobResult | EnvelopeJobResult;
  transfer: ArrayBuffer[];
} {
  if ('envelope' in job) return { result: runEnvelopeJob(job), transfer: [] };
  const result = runOperationJob(OPERATIONS, job);
  return { result, transfer: result.kind === 'computed' ? [result.json.buffer as ArrayBuffer] : [] };
}
