import assert from 'node:assert/strict';
import * as v from 'valibot';
import { InputRejected, validationFailed, type Issue } from '../../../src/errors.js';
import type { JsonOperation } from '../../../src/helpers/operation.js';
import { toIssues } from '../../../src/invoice/issues.js';

/** Validates a body as the HTTP route does (every issue at once), then runs the operation. */
export function runOperation<TSchema extends v.GenericSchema, TResult>(
  operation: JsonOperation<TSchema, TResult>,
  body: unknown,
  today = '2026-11-22',
): TResult {
  const parsed = v.safeParse(operation.request, body, { abortEarly: false });
  if (!parsed.success) throw validationFailed(toIssues(parsed.issues));
  return operation.run(parsed.output, { today });
}

/** The 400 an operation answers for a body: its error code and issues. */
export function rejectionOf<TSchema extends v.GenericSchema, TResult>(
  operation: JsonOperation<TSchema, TResult>,
  body: unknown,
  today = '2026-11-22',
): { code: string; issues: Issue[] } {
  try {
    runOperation(operation, body, today);
  } catch (error) {
    assert.ok(error instanceof InputRejected, `expected a rejection (400), got ${String(error)}`);
    return { code: error.code, issues: error.issues ?? [] };
  }
  assert.fail('expected the body to be rejected');
}

/** [path, code] of every issue, for compact assertions. */
export const pathsAndCodes = (issues: readonly Issue[]) => issues.map(({ path, code }) => [path, code]);
