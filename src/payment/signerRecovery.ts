import { Worker } from 'node:worker_threads';
import { recoverAddress, type Hex } from 'viem';

/**
 * Recovers the address that signed `hash` (a 65-byte ECDSA signature) on a thread of its own, at
 * the process's priority, instead of the event loop. secp256k1 recovery in JavaScript
 * (@noble/curves through viem) takes 6-8 ms of CPU and leaves about 1 MB of garbage per paid
 * request (measured 2026-12-06): on the event loop it delayed every request behind it, /healthz
 * included, and was a third of what the loop allocated during the flood of reliability 11
 * (docs/reliability.md). Rejects when the signature recovers to no key (not a point on the curve,
 * a bad recovery byte), as viem does. The thread starts on first use (or warmSignerRecovery) and
 * keeps the process alive only while it has work; if it fails, the recoveries it held are done
 * here, on the event loop.
 */
export function recoverSigner(hash: Hex, signature: Hex): Promise<Hex> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { hash, signature, resolve, reject });
    const { thread } = started();
    thread.ref();
    thread.postMessage({ id, hash, signature });
  });
}

/**
 * Starts the thread now and resolves once it has loaded viem (0.3-0.6 s of CPU; never rejects): a
 * service that awaits it before listening doesn't make its first paid request wait for it.
 */
export function warmSignerRecovery(): Promise<void> {
  return started().loaded;
}

type Recovery = { hash: Hex; signature: Hex; resolve: (address: Hex) => void; reject: (error: Error) => void };
type Answer = { id: number; address?: Hex; error?: string } | 'ready';

const WORKER_URL = new URL('./signerRecoveryWorker.mjs', import.meta.url);
const pending = new Map<number, Recovery>();
let nextId = 0;
let worker: { thread: Worker; loaded: Promise<void> } | undefined;

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
    const { id, address, error } = answer;
    const recovery = pending.get(id);
    if (!recovery) return;
    pending.delete(id);
    if (pending.size === 0) thread.unref();
    if (address) recovery.resolve(address);
    else recovery.reject(new Error(error));
  });
  const fail = () => {
    markLoaded();
    if (worker?.thread === thread) worker = undefined;
    for (const [id, recovery] of pending) {
      pending.delete(id);
      recoverAddress({ hash: recovery.hash, signature: recovery.signature }).then(recovery.resolve, recovery.reject);
    }
  };
  thread.on('error', fail);
  thread.on('exit', fail);
  // Loading or working, it keeps the process alive; idle, it doesn't (unref above).
  worker = { thread, loaded };
  return worker;
}
