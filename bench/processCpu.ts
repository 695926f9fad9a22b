import { readFileSync } from 'node:fs';
import { descendants } from './processMemory.js';

/**
 * CPU time spent by this Node process (all its threads: the compute pool's too) and by the Chromium
 * processes below it, in ms. Unlike wall time it hardly moves with the machine's load (other jobs
 * delay a render, they do not make it do more work), so a ratio of CPU per call still means
 * something on a loaded machine. Chromium's part is read from /proc (clock ticks, 10 ms each), so it
 * is summed over many calls before it is compared.
 */
const TICK_MS = 10;

function ticksOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime: fields 14 and 15 of stat, 12 and 13 after the command name.
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0; // gone meanwhile
  }
}

/** The browser's CPU ms so far (its processes found anew each time: pages are retired and replaced). */
export const browserCpuMs = (): number =>
  descendants(process.pid).reduce((sum, pid) => sum + ticksOf(pid), 0) * TICK_MS;

/** This process's CPU ms so far, every thread. */
export function nodeCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
