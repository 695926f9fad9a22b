import { readdirSync, readFileSync } from 'node:fs';

/** Linux counts CPU time in clock ticks of 10 ms (USER_HZ 100) in /proc/stat and /proc/<pid>/stat. */
const TICK_MS = 10;

/** The machine's busy CPU time so far (every core, idle and I/O wait left out), in ms. */
function machineBusyMs(): number {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already in user and nice).
  const [user, nice, system, , , irq, softirq, steal] = ticks as number[];
  return (user! + nice! + system! + irq! + softirq! + steal!) * TICK_MS;
}

/** Every process's parent and CPU time, its own and its reaped children's (so one that exits still counts, in its parent). */
function processes(): Map<number, { parent: number; cpuMs: number }> {
  const found = new Map<number, { parent: number; cpuMs: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((field) => Number(fields[field]));
      found.set(Number(name), { parent: Number(fields[1]), cpuMs: (utime! + stime! + cutime! + cstime!) * TICK_MS });
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** The CPU time so far of `root` and every process below it, in ms. */
function treeCpuMs(root: number): number {
  const all = processes();
  const inTree = (pid: number): boolean => {
    for (let at = pid, hops = 0; at > 1 && hops < 64; hops++) {
      if (at === root) return true;
      at = all.get(at)?.parent ?? 0;
    }
    return false;
  };
  let total = 0;
  for (const [pid, { cpuMs }] of all) if (inTree(pid)) total += cpuMs;
  return total;
}

/**
 * Starts counting how much of the machine's CPU went to work outside this process's tree (the
 * service, its Chromium and payment network, the flooder and the probe are all below the test):
 * other sessions' tests, a build. `foreignCores()` is that work since the start, in cores on
 * average; on an otherwise idle machine it stays near 0 (kernel threads).
 */
export function foreignCpu(): { foreignCores: () => number } {
  const started = { at: performance.now(), machine: machineBusyMs(), ours: treeCpuMs(process.pid) };
  return {
    foreignCores: () => {
      const foreignMs = machineBusyMs() - started.machine - (treeCpuMs(process.pid) - started.ours);
      return Math.max(0, foreignMs) / (performance.now() - started.at);
    },
  };
}
