import { createHash } from 'node:crypto';
import { bodyIsAnArray } from '../errors.js';
import type { OperationContext } from '../helpers/operation.js';
import type { Operation } from './operation.js';
import { parseRequestJson } from './requestJson.js';

/**
 * What the compute pool does for an operation's body, on a worker thread (or inline when the pool
 * has no threads): parse the JSON text (an MCP call's arguments arrive parsed), validate it with the
 * row's own `parse`, and for a free computed row compute its answer too. Only plain data goes in and
 * comes out; an error crosses as data (errors.ts errorToData).
 */
export interface OperationJob {
  operationId: string;
  body: { text: string } | { value: unknown };
  context: OperationContext;
  /** Compute the answer as well (a free row with `compute`); otherwise hand the input back. */
  compute: boolean;
}

export type OperationJobResult =
  /** The JSON answer's UTF-8 bytes (its buffer transferred, not copied). */
  | { kind: 'computed'; json: Uint8Array }
  /** The work's input, and which body a payment for it pays for (paidCall.ts fingerprint). */
  | { kind: 'parsed'; input: unknown; fingerprint: string };

const encoder = new TextEncoder();

export function runOperationJob(operations: ReadonlyMap<string, Operation>, job: OperationJob): OperationJobResult {
  const operation = operations.get(job.operationId);
  if (!operation?.request) throw new Error(`no operation ${job.operationId} with a request body`);
  const body = 'text' in job.body ? parseRequestJson(job.body.text) : job.body.value;
  // Every operation takes an object; a strict JSON parser accepts arrays too.
  if (Array.isArray(body)) throw bodyIsAnArray();
  const input = operation.request.parse(body, job.context);
  if (job.compute && operation.compute) return { kind: 'computed', json: encoder.encode(JSON.stringify(operation.compute(input, job.context))) };
  return { kind: 'parsed', input, fingerprint: fingerprintOf(operation.method, operation.path, body) };
}

/** Which body a payment paid for: the JSON text of the parsed body, with method and path (the same over HTTP and MCP). */
export const fingerprintOf = (method: string, path: string, body: unknown) =>
  createHash('sha256').update(`${method} ${path}\n${JSON.stringify(body ?? null)}`).digest('hex');
