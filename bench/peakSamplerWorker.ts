// Worker thread of peakSampler.ts: reads /proc off the main thread. Reading smaps_rollup of a
// browser's processes takes ≈ 15 ms; done on the main thread every 150 ms it would stall the
// event loop the measured service runs on.
import { parentPort } from 'node:worker_threads';
import { descendants, memoryOf, processTree, type Memory } from './processMemory.js';

const INTERVAL_MS = 150;
/** The browser's pid, or 'all': every process below the benchmark's own process. */
let root: number | 'all' | undefined;
let ownerPid = 0;
let peak: Memory = { pssMiB: 0, rssMiB: 0, processes: 0 };

function take(): void {
  if (root === undefined) return;
  const now = memoryOf(root === 'all' ? descendants(ownerPid) : processTree(root));
  if (now.pssMiB > peak.pssMiB) peak = { ...now, rssMiB: Math.max(now.rssMiB, peak.rssMiB) };
  else peak.rssMiB = Math.max(peak.rssMiB, now.rssMiB);
}

const timer = setInterval(take, INTERVAL_MS);
parentPort!.on('message', (message: { root?: number | 'all'; owner?: number; stop?: boolean }) => {
  if (message.owner !== undefined) ownerPid = message.owner;
  if (message.root !== undefined) root = message.root;
  if (message.stop) {
    clearInterval(timer);
    take();
    parentPort!.postMessage(peak);
    parentPort!.close();
  }
});
