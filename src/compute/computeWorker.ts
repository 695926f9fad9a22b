import { parentPort, workerData } from 'node:worker_threads';
import { errorToData } from '../errors.js';
import { lowerThisThreadsPriority } from './lowestPriority.js';
import type { WorkerData } from './computePool.js';
import type { Job, JobModule, JobResult } from './messages.js';

/**
 * A compute worker (computePool.ts): runs its job module's `runJob` (the module named by the pool's
 * creator, e.g. operations/operationWorker.ts) off the event loop; the shared ones at the lowest CPU
 * priority, the paid one at the process's own (computePool.ts).
 * Only plain data crosses the thread: the result, or the error as data (errors.ts).
 */
const { jobModule, lowPriority } = workerData as WorkerData;
if (lowPriority) lowerThisThreadsPriority();
const { runJob } = (await import(jobModule)) as JobModule;

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
