import * as v from 'valibot';
import type { JsonOperation } from '../helpers/operation.js';
import { parseOrReject } from '../invoice/issues.js';
import type { Operation } from './operation.js';

/** Each pure helper as an operation: computed on the compute pool, `today` read per call (UTC). */
export function helperOperations(operations: readonly JsonOperation[]): Operation[] {
  return operations.map((operation) => ({
    method: 'POST',
    path: operation.path,
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.description,
    tag: 'Helpers',
    request: {
      schema: operation.request,
      example: operation.example,
      parse: (body: unknown) => parseOrReject(operation.request, body),
    },
    response: {
      contentType: 'application/json',
      description: 'The computed result.',
      schema: operation.response,
      example: operation.run(v.parse(operation.request, operation.example), { today: exampleToday }),
    },
    compute: (input, context) => operation.run(input, context),
  }));
}

// Examples in the docs are computed for a fixed day so the published documents don't change daily.
const exampleToday = '2026-11-22';
