import { writePdfBatchZip, type PdfBatchZipJob, type PooledBatchFile } from '../batch/pdfBatchZip.js';
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

export function runJob(job: OperationJob | EnvelopeJob | PdfBatchZipJob): {
  result: OperationJobResult | EnvelopeJobResult | PooledBatchFile;
  transfer: ArrayBuffer[];
} {
  if ('envelope' in job) {
    const result = runEnvelopeJob(job);
    return { result, transfer: result.member ? [result.member.bytes.buffer as ArrayBuffer] : [] };
  }
  if ('pdfBatchZip' in job) {
    // The archive is a Buffer of its own (ZipWriter.finish concatenates): transfer it, no copy.
    const written = writePdfBatchZip(job);
    const body = ownBytes(written.body);
    return { result: { ...written, body }, transfer: [body.buffer as ArrayBuffer] };
  }
  const result = runOperationJob(OPERATIONS, job);
  if (result.kind === 'worked') {
    const own = ownBytes(result.answer.body);
    return {
      result: { kind: 'worked', answer: { ...result.answer, body: own } },
      transfer: [own.buffer as ArrayBuffer],
    };
  }
  return { result, transfer: result.kind === 'computed' ? [result.json.buffer as ArrayBuffer] : [] };
}

/** A small Buffer is a view on Node's shared 8 KiB pool: transfer a copy of its own, never the pool. */
const ownBytes = (body: Uint8Array): Uint8Array =>
  body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : new Uint8Array(body);
