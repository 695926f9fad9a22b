import { Worker } from 'node:worker_threads';
import type { Memory } from './processMemory.js';

/**
 * Peak memory of a process tree while a target is measured, sampled in a worker thread (see
 * peakSamplerWorker.ts). `root()` is asked on the main thread every 250 ms, so a browser replaced
 * mid-run is followed; it must be cheap (a pid getter, not a /proc scan).
 */
export function samplePeakInWorker(root: () => number | 'all' | undefined): { stop(): Promise<Memory> } {
  const worker = new Worker(new URL('./peakSamplerWorker.mjs', import.meta.url));
  worker.postMessage({ owner: process.pid, root: root() });
  const follow = setInterval(() => {
    const current = root();
    if (current !== undefined) worker.postMessage({ root: current });
  }, 250);
  return {
    stop() {
      clearInterval(follow);
      return new Promise<Memory>((resolve, reject) => {
        worker.once('message', (peak: Memory) => resolve(peak));
        worker.once('error', reject);
        worker.postMessage({ stop: true });
      });
    },
  };
}
