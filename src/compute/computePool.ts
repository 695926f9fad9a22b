import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { AppError, errorFromData } from '../errors.js';
import { WORKER_READY, type Job, type JobResult } from './messages.js';

export interface ComputePool {
  /**
   * Runs one job on a worker: its job module's result, or the error it threw, rebuilt from data
   * (errors.ts). `high` jobs are dispatched before any `unpaid` one waiting, and both before any
   * `normal` one.
   */
  run(input: unknown, priority?: Priority): Promise<unknown>;
  /**
   * Starts the shared workers now instead of on first use, and resolves once each has loaded its
   * job module (rejects if one fails to). A server that awaits it before listening answers its
   * first request without waiting for a worker's start-up (2-3 s of CPU when workers loaded their
   * sources through tsx, which on a busy machine took the first request of a test past its 10 s
   * timeout; 0.6 s bundled, bundledWorker.mjs).
   */
  warm(): Promise<void>;
  close(): Promise<void>;
}

export interface ComputePoolOptions {
  threads: number;
  /** Jobs per thread and priority (running or waiting) beyond this are refused at once (server_busy): a flood can't queue without bound. */
  maxQueued: number;
  /** The module whose `runJob` the workers run (messages.ts JobModule), as a file URL. */
  jobModule: URL;
}

// Under tsx (development, tests) this file is .ts and so is its worker, which bundledWorker.mjs
// bundles with its job module into plain JavaScript first (a worker thread has no TypeScript
// loader, and loading the sources through tsx cost 2 s of CPU per worker); built, both are .js.
const UNDER_TSX = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(UNDER_TSX ? './bundledWorker.mjs' : './computeWorker.js', import.meta.url);
// Under tsx the worker runs plain JavaScript: none of the parent's flags (--import tsx, which
// would register tsx's loader in the thread for 0.2 s of CPU; --input-type, which a file refuses).
const newWorker = (workerData: WorkerData) =>
  new Worker(WORKER_URL, UNDER_TSX ? { workerData, execArgv: [] } : { workerData });

/**
 * `high`: a paid body (it carries a payment or a sign-in); `unpaid`: a paid operation's body sent
 * without either, whose answer is the 402 (callOperation.ts); `normal`: free work.
 */
export type Priority = 'high' | 'unpaid' | 'normal';
/**
 * What a worker is told at start (computeWorker.ts): its job module, its lane (its thread is named
 * `compute-<lane>`), and by how many nice values it lowers its thread below the process's own.
 */
export interface WorkerData {
  jobModule: string;
  lane: Lane;
  nice: number;
}
/**
 * A worker's lane: the jobs it takes, in order, and how far below the process's priority its
 * thread runs (nice steps, at most to 19: lowestPriority.ts; the values below are those of a
 * service started at nice 0).
 */
type Lane = 'paid' | 'unpaid' | 'shared';
const LANES: Record<Lane, { takes: readonly Priority[]; nice: number }> = {
  paid: { takes: ['high'], nice: 0 },
  // Below the event loop and Chromium (nice 0: CFS gives a nice-10 thread about a tenth of a core
  // they contend for), above free work (19): an unpaid flood's validation no longer takes the cores
  // from the event loop that answers /healthz (reliability 11, docs/reliability.md), and a payer's
  // first request, which fetches the 402, still goes before free work.
  unpaid: { takes: ['unpaid'], nice: 10 },
  shared: { takes: ['high', 'unpaid', 'normal'], nice: 19 },
};
type Queued = {
  input: unknown;
  priority: Priority;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
};
/** A `paid` slot takes `high` jobs only and runs at the process's own priority, an `unpaid` one `unpaid` jobs only; the shared ones take any job, at the lowest. */
type Slot = {
  worker: Worker;
  job: (Queued & { id: number }) | undefined;
  lane: Lane;
  /** Settles when the worker has loaded its job module (WORKER_READY) or failed to. */
  loaded: Promise<void>;
};

/** How long close() lets a worker that is still loading finish before terminating it anyway. */
const LOAD_WAIT_MS = 10_000;

/** Resolves when `promise` settles, however it does, or after `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  try {
    await Promise.race([promise.then(noop, noop), elapsed]);
  } finally {
    clearTimeout(timer);
  }
}
const noop = () => {};

/**
 * Isolates created from now on (this pool's workers; the event loop's was created at start and
 * keeps its background compiler) optimize their hot code on their own thread, at its priority,
 * instead of handing it to V8's background threads, which all isolates share and which run at the
 * process's priority. Measured in the flood of reliability 11 (docs/reliability.md): those threads
 * spent 5-6 ms of CPU per request at the event loop's priority compiling for the lowered workers
 * (about 0.8 ms per ms of their own work), more than the event loop itself; with this, 0.3 ms.
 * V8 reads the flag when it sets an isolate up, so the event loop's isolate is left as it was.
 */
function jitOnTheWorkersOwnThreads() {
  setFlagsFromString('--no-concurrent-recompilation');
}

/**
 * Worker threads for CPU work that grows with the request (parsing, validation, totals, rule
 * checks). A maximal late fee (1,200 compounded periods), timesheet (2,000 entries, 700 KiB of
 * JSON) or 200-line validation takes 3–25 ms; on the event loop a flood of them stalled every other
 * request, /healthz and paid ones included. The workers run at the lowest CPU priority
 * (lowestPriority.ts) and receive request bodies as text, so the event loop neither parses nor
 * clones them. Each worker has one job at a time; the waiting ones queue here, `high` (a paid
 * operation's body) ahead of `normal`. One more worker, at the process's own priority, takes `high`
 * jobs only: a paid body never waits behind a free job, which at the lowest priority can take many
 * times its 3–25 ms while Chromium and the event loop have the cores (a priority inversion that
 * put a paid request's p50 at 1.94× its quiet baseline under a flood); and a flood never fills its
 * queue. Another, at nice 10, takes `unpaid` bodies only (LANES). Workers start on first use (or warm()), keep the process alive only while they have a job, and are
 * replaced if one dies (its job fails with a plain Error: a logged internal_error). The pool knows
 * no operation: its job module does.
 */
export function createComputePool(options: ComputePoolOptions): ComputePool {
  jitOnTheWorkersOwnThreads();
  const slots: Slot[] = [];
  const waiting: Record<Priority, Queued[]> = { high: [], unpaid: [], normal: [] };
  /** Jobs accepted and not yet answered (waiting or running), per priority. */
  const inFlight: Record<Priority, number> = { high: 0, unpaid: 0, normal: 0 };
  let nextId = 0;
  let closed = false;

  const finish = (slot: Slot) => {
    const { job } = slot;
    slot.job = undefined;
    if (job) inFlight[job.priority] -= 1;
    return job;
  };

  const spawn = (lane: Lane) => {
    const worker = newWorker({ jobModule: options.jobModule.href, lane, nice: LANES[lane].nice });
    let markLoaded = () => {};
    let markFailed = (_error: unknown) => {};
    const loaded = new Promise<void>((resolve, reject) => {
      markLoaded = resolve;
      markFailed = reject;
    });
    // Only warm() waits on it; a failure is otherwise the job's (fail below), not an unhandled rejection.
    loaded.catch(() => {});
    const slot: Slot = { worker, job: undefined, lane, loaded };
    slot.worker.on('message', (message: JobResult | typeof WORKER_READY) => {
      if (message === WORKER_READY) {
        markLoaded();
        if (!slot.job) slot.worker.unref();
        return;
      }
      const job = finish(slot);
      slot.worker.unref();
      if (job && job.id === message.id) {
        if (message.ok) job.resolve(message.result);
        else job.reject(errorFromData(message.error));
      }
      dispatch();
    });
    const fail = (error: unknown) => {
      markFailed(error);
      const index = slots.indexOf(slot);
      if (index < 0) return;
      slots.splice(index, 1);
      finish(slot)?.reject(error);
      dispatch();
    };
    slot.worker.on('error', fail);
    slot.worker.on('exit', (code) => fail(new Error(`compute worker exited with ${code}`)));
    // Idle workers don't keep the process alive; busy or loading ones do, until their answers are in
    // or they are loaded. (A 'message' listener refs the worker: unref after adding it.)
    // The paid and unpaid slots first, so that dispatch gives them their jobs and leaves the shared workers to free ones.
    if (lane === 'shared') slots.push(slot);
    else slots.unshift(slot);
  };

  function dispatch() {
    if (closed) return;
    while (slots.filter((slot) => slot.lane === 'shared').length < options.threads) spawn('shared');
    if (waiting.high.length > 0 && !slots.some((slot) => slot.lane === 'paid')) spawn('paid');
    if (waiting.unpaid.length > 0 && !slots.some((slot) => slot.lane === 'unpaid')) spawn('unpaid');
    for (const slot of slots) {
      if (slot.job) continue;
      const from = LANES[slot.lane].takes.find((priority) => waiting[priority].length > 0);
      const next = from && waiting[from].shift();
      if (!next) continue;
      const job = { ...next, id: nextId++ };
      slot.job = job;
      slot.worker.ref();
      slot.worker.postMessage({ id: job.id, input: job.input } satisfies Job);
    }
  }

  return {
    async warm() {
      if (closed) return;
      dispatch();
      await Promise.all(slots.filter((slot) => slot.lane === 'shared').map((slot) => slot.loaded));
    },
    run(input, priority = 'normal') {
      if (closed) return Promise.reject(new AppError('shutting_down', 'The service is shutting down; retry.'));
      if (inFlight[priority] >= options.threads * options.maxQueued) {
        return Promise.reject(
          new AppError('server_busy', 'Too many computations are waiting; retry after Retry-After.'),
        );
      }
      return new Promise<unknown>((resolve, reject) => {
        inFlight[priority] += 1;
        waiting[priority].push({ input, priority, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const job of Object.values(waiting).flatMap((jobs) => jobs.splice(0)))
        job.reject(new AppError('shutting_down', 'The service is shutting down; retry.'));
      // Each exit fails its worker's job (a plain Error) through `fail`. A worker still loading its
      // job module (importing the bundle, or esbuild building it under tsx) is let finish first:
      // Node documents that terminate() at an arbitrary point of its core modules' work may crash
      // the process: the likeliest cause found (not reproduced) of a unit test process that ended
      // mid-run in CI at 1d68c58, closing a pool whose second worker had just started. Bounded: a
      // load that hangs is cut after LOAD_WAIT_MS.
      await Promise.all(
        [...slots].map(async ({ worker, loaded }) => {
          await settledWithin(loaded, LOAD_WAIT_MS);
          await worker.terminate();
        }),
      );
    },
  };
}
