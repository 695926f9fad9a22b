import * as v from 'valibot';
import { operationContextAt, type JsonOperation } from '../../helpers/operation.js';
import { parseOrReject } from '../../invoice/issues.js';
import type { RouteSpec } from '../routeSpec.js';

/** Turns each pure helper operation into a JSON route; `today` is read per request (UTC). */
export function helperRoutes(operations: readonly JsonOperation[], now: () => Date): RouteSpec[] {
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
    handle: (input) => ({ body: operation.run(input, operationContextAt(now())) }),
  }));
}

// Examples in the docs are computed for a fixed day so the published documents don't change daily.
const exampleToday = '2026-11-22';
