import type { Issue } from '../errors.js';
import type { OperationContext } from '../helpers/operation.js';

/**
 * One job for a compute worker: an operation on a body that is either the request's JSON text
 * (HTTP: parsed in the worker too) or an already parsed value (MCP tool arguments).
 */
export interface Job {
  id: number;
  operationId: string;
  input: { text: string } | { value: unknown };
  context: OperationContext;
}

/** A failure, as plain data: a domain error keeps its code and issues, a body error its status. */
export interface JobFailure {
  name: string;
  message: string;
  stack?: string;
  code?: string;
  issues?: Issue[];
  /** co-body's status on a JSON syntax error (400), which errorMiddleware.ts maps. */
  status?: number;
}

/** The answer as UTF-8 JSON bytes (its buffer transferred, not copied), or the failure. */
export type JobResult = { id: number; ok: true; json: Uint8Array } | { id: number; ok: false; failure: JobFailure };
