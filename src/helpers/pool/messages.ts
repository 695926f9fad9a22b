import type { Issue } from '../../errors.js';

/**
 * One job for an operation worker: check a parsed JSON body (only the verdict comes back), or run
 * the operation on a body that passed (validated again there: cheaper than cloning the validated
 * input back and forth), answering its result as JSON text, so the main thread neither clones nor
 * serialises it.
 */
export type Job = { id: number; operationId: string } & ({ kind: 'check'; body: unknown } | { kind: 'run'; body: unknown; today: string });

export type JobResult =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; issues: Issue[] }
  | { id: number; ok: false; error: { name: string; code?: string; message: string; issues?: Issue[] } };
