import { Worker } from 'node:worker_threads';
import { recoverAddress, type Hex } from 'viem';
import { sign } from 'viem/accounts';

/**
 * secp256k1 for payments on a thread of its own, at the process's priority, instead of the event
 * loop. In JavaScript (@noble/curves through viem) recovering a payer's key takes 6-8 ms of CPU
 * and leaves about 1 MB of garbage per paid request, and signing its receipt 1.5-2.5 ms and
 * 0.4 MB (measured 2026-12-06): on the event loop they delayed every request behind them, /healthz
 * included, and were over a third of what the loop allocated during the flood of reliability 11
 * (docs/reliability.md). The thread starts on first use (or warmEcdsaThread) and keeps the process
 * alive only while it has work; if it fails, the jobs it held are done here, on the event loop.
 */

/** The address that signed `hash` (a 65-byte signature); rejects when it recovers to no key (not a point on the curve, a bad recovery byte), as viem does. */
export const recoverSigner = (hash: Hex, signature: Hex): Promise<Hex> => run({ hash, signature });

/** `hash` signed with `privateKey`, as viem's account.signTypedData signs the typed data's hash. */
export const signHash = (hash: Hex, privateKey: Hex): Promise<Hex> => run({ hash, privateKey });

/**
 * Starts the thread now and resolves once it has loaded viem (0.3-0.6 s of CPU; never rejects): a
 * service that awaits it before listening doesn't make its first paid request wait for it.
 */
export function warmEcdsaThread(): Promise<void> {
  return started().loaded;
}

type EcdsaJob = { hash: Hex; signature: Hex } | { hash: Hex; privateKey: Hex };
type Pending = { job: EcdsaJob; resolve: (value: Hex) => void; reject: (error: Error) => void };
type Answer = { id: number; value?: Hex; error?: string } | 'ready';

const WORKER_URL = new URL('./ecdsaThreadWorker.mjs', import.meta.url);
const pending = new Map<number, Pending>();
let nextId = 0;
let worker: { thread: Worker; loaded: Promise<void> } | undefined;

function run(job: EcdsaJob): Promise<Hex> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { job, resolve, reject });
    const { thread } = started();
    thread.ref();
    thread.postMessage({ id, ...job });
  });
}

/** The job on this thread: what the worker does, for when it can't. */
const runHere = (job: EcdsaJob): Promise<Hex> =>
  'privateKey' in job
    ? sign({ hash: job.hash, privateKey: job.privateKey, to: 'hex' })
    : recoverAddress({ hash: job.hash, signature: job.signature });

function started(): { thread: Worker; loaded: Promise<void> } {
  if (worker) return worker;
  // No execArgv: under tsx the parent's `--import tsx` would load a TypeScript loader this plain
  // JavaScript thread doesn't need.
  const thread = new Worker(WORKER_URL, { execArgv: [] });
  let markLoaded = () => {};
  const loaded = new Promise<void>((resolve) => (markLoaded = resolve));
  thread.on('message', (answer: Answer) => {
    if (answer === 'ready') {
      if (pending.size === 0) thread.unref();
      return markLoaded();
    }
    const { id, value, error } = answer;
    const job = pending.get(id);
    if (!job) return;
    pending.delete(id);
    if (pending.size === 0) thread.unref();
    if (value) job.resolve(value);
    else job.reject(new Error(error));
  });
  const fail = () => {
    markLoaded();
    if (worker?.thread === thread) worker = undefined;
    for (const [id, { job, resolve, reject }] of pending) {
      pending.delete(id);
      runHere(job).then(resolve, reject);
    }
  };
  thread.on('error', fail);
  thread.on('exit', fail);
  // Loading or working, it keeps the process alive; idle, it doesn't (unref above).
  worker = { thread, loaded };
  return worker;
}
