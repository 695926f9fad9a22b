import { createHash } from 'node:crypto';
import { bodyIsAnArray } from '../errors.js';
import type { DocumentBody, Operation, OperationContext, PooledAnswer } from './operation.js';
import { jsonTextOf, parseRequestJson, splitRequestJson } from './requestJson.js';

/**
 * What the compute pool does for an operation's body, on a worker thread (or inline when the pool
 * has no threads): parse the JSON text (an MCP call's arguments arrive parsed), validate it with the
 * row's own `parse`, and for a free computed row compute its answer too. Only plain data goes in and
 * comes out; an error crosses as data (errors.ts errorToData).
 */
export interface OperationJob {
  operationId: string;
  /**
   * The JSON body's bytes as read (HTTP), its text (an MCP call's arguments split from their
   * envelope), the parsed arguments (MCP), a document row's document (operation.ts
   * `document`), or the input `parse` made of them, completed on the main thread by the row's
   * `request.resolve`: then only `compute` is left to run.
   */
  body:
    | { bytes: Uint8Array | undefined }
    | { text: string }
    | { value: unknown }
    | { document: DocumentBody }
    | { resolved: unknown };
  context: OperationContext;
  /** Compute the answer as well (a free row with `compute`); otherwise hand the input back. */
  compute: boolean;
  /**
   * Run the row's pooled paid work (operation.ts `pooled`) on the parsed input. `cancel` is one
   * Int32 the main thread sets to 1 when verify refused the payment.
   */
  pooledWork?: { cancel: SharedArrayBuffer; specimen?: boolean };
  /**
   * A paid row's body sent with neither payment nor sign-in: its answer is the 402, which needs only
   * the price (operation.ts `priceOf`, from the row's configured one) and the fingerprint. The input
   * stays on the worker: rebuilding a maximal one on the event loop (a 200-line invoice, a full
   * batch) took 2-20 ms per request, which the unpaid flood queued in front of /healthz. An input
   * that names something to look up (request.resolve) still comes back: an unknown name is a 400.
   */
  unpaid?: { configuredUsd: string };
}

export type OperationJobResult =
  /** The JSON answer's UTF-8 bytes (its buffer transferred, not copied). */
  | { kind: 'computed'; json: Uint8Array }
  /** The work's input, and which body a payment for it pays for (paidCall.ts fingerprint). */
  | { kind: 'parsed'; input: unknown; fingerprint: string }
  /** The pooled paid work's answer (its body's buffer transferred). */
  | { kind: 'worked'; answer: PooledAnswer }
  /** An unpaid body that passed every check: the price its 402 quotes (OperationJob.unpaid). */
  | { kind: 'unpaid'; priceUsd: string; fingerprint: string };

const encoder = new TextEncoder();

/**
 * A JSON envelope around a body (an MCP tools/call) as read, its bytes (http/jsonBody.ts
 * jsonBytes), decoded and split on the pool (requestJson.ts splitRequestJson). The member comes
 * back as the UTF-8 bytes of its JSON text (their buffer transferred), which go to the pool again
 * as the operation's body: the event loop neither decodes nor copies the text of a call's
 * arguments (reliability 11, docs/reliability.md).
 */
export interface EnvelopeJob {
  envelope: { bytes: Uint8Array | undefined; path: readonly string[] };
}
export interface EnvelopeJobResult {
  envelope: unknown;
  member?: { bytes: Uint8Array; isObject: boolean };
}

export function runEnvelopeJob(job: EnvelopeJob): EnvelopeJobResult {
  const { envelope, member } = splitRequestJson(jsonTextOf(job.envelope.bytes), job.envelope.path);
  return member
    ? { envelope, member: { bytes: encoder.encode(member.text), isObject: member.isObject } }
    : { envelope };
}

export function runOperationJob(operations: ReadonlyMap<string, Operation>, job: OperationJob): OperationJobResult {
  const operation = operations.get(job.operationId);
  if (!operation?.request) throw new Error(`no operation ${job.operationId} with a request body`);
  if ('resolved' in job.body) {
    if (!operation.compute) throw new Error(`operation ${job.operationId} has nothing to compute`);
    return {
      kind: 'computed',
      json: encoder.encode(JSON.stringify(operation.compute(job.body.resolved, job.context))),
    };
  }
  const { input, fingerprint } =
    'document' in job.body
      ? parseDocumentBody(operation, job.body.document, job)
      : parseJsonBody(operation, job.body, job);
  if (job.pooledWork) {
    if (!operation.pooled) throw new Error(`operation ${job.operationId} has no pooled work`);
    const cancel = new Int32Array(job.pooledWork.cancel);
    const marks = { specimen: job.pooledWork.specimen === true };
    return { kind: 'worked', answer: operation.pooled.run(input, () => Atomics.load(cancel, 0) === 1, marks) };
  }
  // An input that names something to look up (request.resolve) goes back to the main thread first.
  const resolvable = operation.request.resolve?.needed(input) === true;
  if (job.unpaid && !resolvable) {
    const { configuredUsd } = job.unpaid;
    return { kind: 'unpaid', priceUsd: operation.priceOf?.(input, configuredUsd) ?? configuredUsd, fingerprint };
  }
  if (job.compute && operation.compute && !resolvable)
    return { kind: 'computed', json: encoder.encode(JSON.stringify(operation.compute(input, job.context))) };
  return { kind: 'parsed', input, fingerprint };
}

function parseJsonBody(
  operation: Operation,
  jobBody: { bytes: Uint8Array | undefined } | { text: string } | { value: unknown },
  job: OperationJob,
) {
  const body =
    'bytes' in jobBody
      ? parseRequestJson(jsonTextOf(jobBody.bytes))
      : 'text' in jobBody
        ? parseRequestJson(jobBody.text)
        : jobBody.value;
  // Every operation takes an object; a strict JSON parser accepts arrays too.
  if (Array.isArray(body)) throw bodyIsAnArray();
  return {
    input: operation.request!.parse(body, job.context),
    fingerprint: fingerprintOf(operation.method, operation.path, body),
  };
}

function parseDocumentBody(operation: Operation, document: DocumentBody, job: OperationJob) {
  const reader = operation.request!.document;
  if (!reader) throw new Error(`operation ${operation.operationId} takes no document body`);
  return {
    input: reader.parseDocument(document, job.context),
    fingerprint: documentFingerprintOf(operation.method, operation.path, document),
  };
}

/** Which document a payment paid for: its bytes with their media type, query parameters, method and path. */
const documentFingerprintOf = (method: string, path: string, document: DocumentBody) =>
  createHash('sha256')
    .update(`${method} ${path}\n${document.mediaType}\n${JSON.stringify(Object.entries(document.params).sort())}\n`)
    .update(document.bytes)
    .digest('hex');

/** Which body a payment paid for: the JSON text of the parsed body, with method and path (the same over HTTP and MCP). */
const fingerprintOf = (method: string, path: string, body: unknown) =>
  createHash('sha256')
    .update(`${method} ${path}\n${JSON.stringify(body ?? null)}`)
    .digest('hex');
