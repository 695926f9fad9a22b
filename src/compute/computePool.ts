import { Worker } from 'node:worker_threads';
import { AppError, InputRejected, type ErrorCode } from '../errors.js';
import type { OperationContext } from '../helpers/operation.js';
import type { Job, JobFailure, JobResult } from './messages.js';

/** A request body still as JSON text: the worker parses it (the router's choice, router.ts). */
export class JsonText {
  constructor(readonly text: string) {}
}

export interface ComputePool {
  /**
   * Runs a free operation (computeJobs.ts) on a worker: the answer as JSON bytes, or the same
   * error the route would have thrown inline (InputRejected, invalid JSON, ...).
   */
  run(operationId: string, body: unknown, context: OperationContext): Promise<Buffer>;
  close(): Promise<void>;
}

export interface ComputePoolOptions {
  threads: number;
  /** Jobs waiting per thread beyond this are refused at once (503 server_busy): a flood can't queue without bound. */
  maxQueued: number;
}

// Under tsx (development, tests) this file is .ts and so is its worker, which needs tsx's loader
// registered in its own thread first (loader hooks are per thread); built, both are .js.
const UNDER_TSX = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(UNDER_TSX ? './computeWorker.ts' : './computeWorker.js', import.meta.url);
const newWorker = () =>
  UNDER_TSX
    ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL.href)}); });`, { eval: true })
    : new Worker(WORKER_URL);

type Pending = { resolve: (json: Buffer) => void; reject: (error: unknown) => void };

/**
 * Worker threads for the free routes' CPU work. A maximal late fee (1,200 compounded periods),
 * timesheet (2,000 entries, 700 KiB of JSON) or 200-line validation takes 3–25 ms; on the event
 * loop a flood of them stalled every other request, /healthz and paid ones included. The workers
 * run at the lowest CPU priority (lowestPriority.ts) and receive the body as text, so the event
 * loop neither parses nor clones it. Jobs go to the worker with the fewest in flight; workers start
 * on first use, keep the process alive only while they have jobs, and are replaced if one dies
 * (its jobs fail with a plain Error: a logged 500 internal_error).
 */
export function createComputePool(options: ComputePoolOptions): ComputePool {
  const workers: { worker: Worker; pending: Map<number, Pending> }[] = [];
  let nextId = 0;
  let closed = false;

  const spawn = () => {
    const worker = newWorker();
    const slot = { worker, pending: new Map<number, Pending>() };
    worker.on('message', (result: JobResult) => {
      const pending = slot.pending.get(result.id);
      slot.pending.delete(result.id);
      if (slot.pending.size === 0) worker.unref();
      if (!pending) return;
      if (result.ok) pending.resolve(Buffer.from(result.json.buffer, result.json.byteOffset, result.json.byteLength));
      else pending.reject(errorOf(result.failure));
    });
    const fail = (error: unknown) => {
      const index = workers.indexOf(slot);
      if (index >= 0) workers.splice(index, 1);
      for (const pending of slot.pending.values()) pending.reject(error);
      slot.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`compute worker exited with ${code}`)));
    // Idle workers don't keep the process alive; busy ones do, until their answers are in. (After
    // the listeners: adding a 'message' listener refs the worker again.)
    worker.unref();
    workers.push(slot);
    return slot;
  };

  return {
    run(operationId, body, context) {
      if (closed) return Promise.reject(new AppError('shutting_down', 'The service is shutting down; retry.'));
      while (workers.length < options.threads) spawn();
      const slot = workers.reduce((best, candidate) => (candidate.pending.size < best.pending.size ? candidate : best));
      if (slot.pending.size >= options.maxQueued) {
        return Promise.reject(new AppError('server_busy', 'Too many free computations are waiting; retry after Retry-After.'));
      }
      const id = nextId++;
      const job: Job = { id, operationId, input: body instanceof JsonText ? { text: body.text } : { value: body }, context };
      return new Promise<Buffer>((resolve, reject) => {
        if (slot.pending.size === 0) slot.worker.ref();
        slot.pending.set(id, { resolve, reject });
        slot.worker.postMessage(job);
      });
    },
    async close() {
      closed = true;
      await Promise.all(workers.splice(0).map(({ worker }) => worker.terminate()));
    },
  };
}

/** A failure in the worker, rebuilt as the error the route would have thrown on the event loop. */
function errorOf(failure: JobFailure): Error {
  if (failure.name === 'InputRejected' && failure.code) return new InputRejected(failure.code, failure.message, failure.issues ?? []);
  if (failure.name === 'AppError' && failure.code) return new AppError(failure.code as ErrorCode, failure.message, failure.issues ? { issues: failure.issues } : {});
  // A JSON syntax error keeps co-body's shape (status 400) for errorMiddleware.ts's mapping; any
  // other failure stays a plain Error, so that HTTP and MCP log it and answer internal_error, as
  // they would have inline.
  const error = Object.assign(new Error(failure.message), failure.status === undefined ? {} : { status: failure.status });
  if (failure.stack) error.stack = failure.stack;
  return error;
}
