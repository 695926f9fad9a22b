import { parentPort, workerData } from 'node:worker_threads';
import { errorToData } from '../errors.js';
import { lowerThisThreadsPriority, nameThisThread } from './lowestPriority.js';
import type { WorkerData } from './computePool.js';
import { WORKER_READY, type Job, type JobModule, type JobResult } from './messages.js';

/**
 * A compute worker (computePool.ts): runs its job module's `runJob` (the module named by the pool's
 * creator, e.g. operations/operationWorker.ts) off the event loop; the shared ones at the lowest CPU
 * priority, the unpaid one below the process's own, the paid one at it (computePool.ts LANES).
 * Only plain data crosses the thread: the result, or the error as data (errors.ts).
 */
const { jobModule, lane, nice } = workerData as WorkerData;
nameThisThread(`compute-${lane}`);
// The job module is loaded before the priority drops: loading it is the pool's start-up, which a
// request may be waiting on (0.6 s of CPU, bundled under tsx), not free work; at nice 19
// on a busy machine the 2-3 s of loading it through tsx took 12-16 s.
const { runJob } = (await import(jobModule)) as JobModule;
if (nice > 0) lowerThisThreadsPriority(nice);
parentPort!.postMessage(WORKER_READY);

parentPort!.on('message', (job: Job) => {
  let message: JobResult;
  let transfer: ArrayBuffer[] = [];
  try {
    const ran = runJob(job.input);
    message = { id: job.id, ok: true, result: ran.result };
    transfer = ran.transfer;
  } catch (error) {
    message = { id: job.id, ok: false, error: errorToData(error) };
  }
  parentPort!.postMessage(message, transfer);
});
