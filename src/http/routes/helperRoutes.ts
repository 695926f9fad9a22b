import * as v from 'valibot';
import { validationFailed } from '../../errors.js';
import type { JsonOperation } from '../../helpers/operation.js';
import type { OperationPool } from '../../helpers/pool/operationPool.js';
import { toIssues } from '../../invoice/issues.js';
import type { RouteSpec } from '../routeSpec.js';

/**
 * Turns each pure helper operation into a JSON route; `today` is read per request (UTC). With a
 * pool, validation and computation run on its worker threads, off the event loop that serves
 * every other request.
 */
export function helperRoutes(operations: readonly JsonOperation[], now: () => Date, pool?: OperationPool): RouteSpec<any>[] {
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
      parse(body: unknown) {
        // With a pool the handler's input is the checked body itself (the worker validates it again).
        if (pool) return pool.check(operation.operationId, body).then(() => body);
        const parsed = v.safeParse(operation.request, body, { abortEarly: false });
        if (!parsed.success) throw validationFailed(toIssues(parsed.issues));
        return parsed.output;
      },
    },
    response: {
      contentType: 'application/json',
      description: 'The computed result.',
      schema: operation.response,
      example: operation.run(v.parse(operation.request, operation.example), { today: exampleToday }),
    },
    handle: async (input) => {
      const today = now().toISOString().slice(0, 10);
      if (!pool) return { body: operation.run(input, { today }) };
      // Already JSON text: the same bytes Koa would have written for the object.
      return { contentType: 'application/json; charset=utf-8', body: await pool.run(operation.operationId, input, today) };
    },
  }));
}

// Examples in the docs are computed for a fixed day so the published documents don't change daily.
const exampleToday = '2026-11-22';
