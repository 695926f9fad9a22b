import assert from 'node:assert/strict';
import type * as v from 'valibot';
import { InputRejected, type Issue } from '../../../src/errors.js';
import { parseOrReject } from '../../../src/invoice/issues.js';

/** A helper as its tests call it: the request schema its operation row validates with, and its pure function. */
export interface Helper<TSchema extends v.GenericSchema, TResult> {
  request: TSchema;
  run(input: v.InferOutput<TSchema>, today: string): TResult;
}

/** Validates a body as the operation row does (every issue at once), then runs the helper. */
export function runOperation<TSchema extends v.GenericSchema, TResult>(
  helper: Helper<TSchema, TResult>,
  body: unknown,
  today = '2026-11-22',
): TResult {
  return helper.run(parseOrReject(helper.request, body), today);
}

/** The 400 a helper answers for a body: its error code and issues. */
export function rejectionOf<TSchema extends v.GenericSchema, TResult>(
  helper: Helper<TSchema, TResult>,
  body: unknown,
  today = '2026-11-22',
): { code: string; issues: Issue[] } {
  try {
    runOperation(helper, body, today);
  } catch (error) {
    assert.ok(error instanceof InputRejected, `expected a rejection (400), got ${String(error)}`);
    return { code: error.code, issues: error.issues ?? [] };
  }
  assert.fail('expected the body to be rejected');
}

/** [path, code] of every issue, for compact assertions. */
export const pathsAndCodes = (issues: readonly Issue[]) => issues.map(({ path, code }) => [path, code]);
