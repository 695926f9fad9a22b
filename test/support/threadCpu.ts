import { readdirSync, readFileSync } from 'node:fs';

/** One thread of this process as Linux reports it (/proc/self/task/<tid>/stat). */
export interface ThreadStat {
  tid: number;
  /** Its name (/proc/self/task/<tid>/comm): `compute-<lane>` for a compute worker (computeWorker.ts). */
  name: string;
  /** Its nice value (field 19). */
  nice: number;
  /** User and system CPU time so far, in ms (fields 14 and 15, clock ticks of 10 ms). */
  cpuMs: number;
}

/** Every thread of this process now (one that ends meanwhile is left out). */
export function threadStats(): ThreadStat[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // The fields after the command name, which may itself hold spaces and parentheses.
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return [
        { tid: Number(tid), name, nice: Number(fields[16]), cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 },
      ];
    } catch {
      return [];
    }
  });
}

/**
 * This process's CPU time so far by who spent it: the event loop (the main thread), the other
 * threads at its priority (a paid compute worker, V8's garbage collection and compiler threads,
 * libuv's pool), and the lowered ones (compute workers below the event loop) by nice value. Unlike
 * a latency, CPU time hardly moves with the machine's load.
 */
export function cpuByPriority(): { eventLoopMs: number; samePriorityMs: number; loweredMs: Record<number, number> } {
  const totals = { eventLoopMs: 0, samePriorityMs: 0, loweredMs: {} as Record<number, number> };
  for (const { tid, nice, cpuMs } of threadStats()) {
    if (tid === process.pid) totals.eventLoopMs += cpuMs;
    else if (nice <= 0) totals.samePriorityMs += cpuMs;
    else totals.loweredMs[nice] = (totals.loweredMs[nice] ?? 0) + cpuMs;
  }
  return totals;
}
