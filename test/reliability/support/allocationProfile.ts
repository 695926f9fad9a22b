// FLOOD_HEAP_PROF=<folder> (flood.test.ts): what the service's main thread allocates, by call
// stack, between the test's 'cpu' messages (before the flood, then during it), written to
// <folder>/allocations-<n>.heapprofile (Chrome DevTools' Memory tab reads them). V8's sampling heap
// profiler, one sample every 16 KiB allocated, with the objects garbage collection has freed
// since: what a scavenge has to deal with is the allocation rate, not the live heap that
// --heap-prof reports at exit (docs/reliability.md).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';

const SAMPLING = {
  samplingInterval: 16_384,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
};

/** Starts sampling; each `next()` writes what was sampled since the last one and starts again. */
export async function allocationProfile(folder: string): Promise<{ next(): Promise<void> }> {
  const session = new Session();
  session.connect();
  // Node 20's typings of HeapProfiler.startSampling lack the two include… flags V8 takes.
  const start = () => session.post('HeapProfiler.startSampling', SAMPLING as { samplingInterval: number });
  await start();
  let written = 0;
  return {
    async next() {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      writeFileSync(join(folder, `allocations-${written++}.heapprofile`), JSON.stringify(profile));
      await start();
    },
  };
}
