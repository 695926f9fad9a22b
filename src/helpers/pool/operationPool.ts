import { Worker } from 'node:worker_threads';
import { AppError, InputRejected, validationFailed, type ErrorCode } from '../../errors.js';
import type { Job, JobResult } from './messages.js';

type Pending = { resolve: (value: unknown) => void; reject: (error: unknown) => void };
type JobInput = Job extends infer J ? (J extends Job ? Omit<J, 'id'> : never) : never;

export interface OperationPool {
  /** Validates `body` for the operation: resolves when valid, else rejects with InputRejected and every issue. */
  check(operationId: string, body: unknown): Promise<void>;
  /** The operation's result for a body that passed `check`, as JSON text. */
  run(operationId: string, body: unknown, today: string): Promise<string>;
  close(): Promise<void>;
}

export interface OperationPoolOptions {
  threads: number;
  /** Jobs waiting beyond this are refused at once (503 server_busy), so a flood can't queue without bound. */
  maxQueued: number;
}

// Under tsx (development, tests) this file is .ts and so is its worker, which needs tsx's loader
// registered in its own thread first (loader hooks are per thread); built, both are .js.
const UNDER_TSX = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(UNDER_TSX ? './operationWorker.ts' : './operationWorker.js', import.meta.url);
const newWorker = () =>
  UNDER_TSX
    ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL.href)}); });`, { eval: true })
    : new Worker(WORKER_URL);

/**
 * A few worker threads for the helpers' CPU work. A maximal late fee (1,200 compounded periods) or
 * timesheet (2,000 entries) takes 15–20 ms of pure computation; on the main thread a flood of them
 * stalled every other request, /healthz and paid ones included. Jobs go to the worker with the
 * fewest in flight; workers start on first use, don't keep the process alive, and are replaced if
 * one dies (its jobs fail with internal_error).
 */
export function createOperationPool(options: OperationPoolOptions): OperationPool {
  const workers: { worker: Worker; pending: Map<number, Pending> }[] = [];
  let nextId = 0;
  let closed = false;

  const spawn = () => {
    const worker = newWorker();
    worker.unref();
    const slot = { worker, pending: new Map<number, Pending>() };
    worker.on('message', (result: JobResult) => {
      const pending = slot.pending.get(result.id);
      slot.pending.delete(result.id);
      if (!pending) return;
      if (result.ok) pending.resolve(result.value);
      else if ('issues' in result) pending.reject(validationFailed(result.issues));
      else pending.reject(errorOf(result.error));
    });
    const fail = (error: unknown) => {
      const index = workers.indexOf(slot);
      if (index >= 0) workers.splice(index, 1);
      for (const pending of slot.pending.values()) pending.reject(new AppError('internal_error', 'Something went wrong on our side. Please try again.', { cause: error }));
      slot.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`operation worker exited with ${code}`)));
    workers.push(slot);
    return slot;
  };

  const submit = (job: JobInput): Promise<unknown> => {
    if (closed) return Promise.reject(new AppError('shutting_down', 'The service is shutting down; retry.'));
    while (workers.length < options.threads) spawn();
    const slot = workers.reduce((best, candidate) => (candidate.pending.size < best.pending.size ? candidate : best));
    if (slot.pending.size >= options.maxQueued) {
      return Promise.reject(new AppError('server_busy', 'Too many computations are waiting; retry after Retry-After.'));
    }
    const id = nextId++;
    return new Promise((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ ...job, id });
    });
  };

  return {
    check: async (operationId, body) => void (await submit({ kind: 'check', operationId, body })),
    run: async (operationId, body, today) => (await submit({ kind: 'run', operationId, body, today })) as string,
    async close() {
      closed = true;
      await Promise.all(workers.splice(0).map(({ worker }) => worker.terminate()));
    },
  };
}

/** A domain error thrown in the worker, rebuilt: rule rejections keep their code and issues. */
function errorOf(error: { name: string; code?: string; message: string; issues?: { path: string; code: string; message: string }[] }): AppError {
  if (error.name === 'InputRejected' && error.code) return new InputRejected(error.code, error.message, error.issues ?? []);
  if (error.name === 'AppError' && error.code) return new AppError(error.code as ErrorCode, error.message);
  return new AppError('internal_error', 'Something went wrong on our side. Please try again.', { cause: new Error(error.message) });
}
