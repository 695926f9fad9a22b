import type * as v from 'valibot';

/**
 * A free-standing JSON operation (the four helpers): a strict request schema, a response schema
 * for the docs, an example, and a pure function. The HTTP layer turns it into a route, validates
 * with `request` (every issue listed) and documents it in every discovery document.
 */
export interface OperationContext {
  /** Today's date (UTC) as YYYY-MM-DD, injected so tests and defaults are deterministic. */
  today: string;
}

/** The context of a call made at `now`: today is its UTC date. */
export const operationContextAt = (now: Date): OperationContext => ({ today: now.toISOString().slice(0, 10) });

export interface JsonOperation<TSchema extends v.GenericSchema = v.GenericSchema, TResult = unknown> {
  operationId: string;
  path: `/v1/${string}`;
  summary: string;
  description: string;
  request: TSchema;
  response: v.GenericSchema;
  example: v.InferInput<TSchema>;
  run(input: v.InferOutput<TSchema>, context: OperationContext): TResult;
}
