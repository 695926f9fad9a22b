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
  if (result.kind === 'worked') {
    // A small Buffer is a view on Node's shared 8 KiB pool: transfer a copy of its own, never the pool.
    const { body } = result.answer;
    const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : new Uint8Array(body);
    return {
      result: { kind: 'worked', answer: { ...result.answer, body: own } },
      transfer: [own.buffer as ArrayBuffer],
    };
  }
  return { result, transfer: result.kind === 'computed' ? [result.json.buffer as ArrayBuffer] : [] };
}
