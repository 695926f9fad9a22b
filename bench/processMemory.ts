import { readdirSync, readFileSync } from 'node:fs';

/**
 * Memory of process trees from /proc (Linux). PSS (proportional set size) splits shared pages
 * between the processes sharing them, so summing it over Chromium's processes gives a fair total;
 * summed RSS counts shared libraries once per process and overstates it (≈ 2.4× on this service's browser).
 */
export interface Memory {
  pssMiB: number;
  rssMiB: number;
  processes: number;
}

function childrenMap(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** `pid` and every process below it. */
export function processTree(pid: number): number[] {
  return [pid, ...descendants(pid)];
}

/** Every process below `pid` (not `pid` itself). */
export function descendants(pid: number): number[] {
  const children = childrenMap();
  const found: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length) {
    const next = queue.shift()!;
    found.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return found;
}

function rollup(pid: number): { pss: number; rss: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
    return { pss: field('Pss'), rss: field('Rss') };
  } catch {
    return undefined;
  }
}

export function memoryOf(pids: readonly number[]): Memory {
  let pss = 0;
  let rss = 0;
  let processes = 0;
  for (const pid of pids) {
    const usage = rollup(pid);
    if (!usage) continue;
    pss += usage.pss;
    rss += usage.rss;
    processes++;
  }
  return { pssMiB: pss / 1024, rssMiB: rss / 1024, processes };
}

/** Chromium processes started by this Node process, i.e. everything below it. */
export function browserMemory(): Memory {
  return memoryOf(descendants(process.pid));
}

/** This Node process: current RSS and its peak (VmHWM). */
export function nodeMemory(): { rssMiB: number; peakRssMiB: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const peak = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  return { rssMiB: process.memoryUsage().rss / 1024 / 1024, peakRssMiB: peak / 1024 };
}
