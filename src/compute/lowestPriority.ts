import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the calling thread's CPU priority to `nice` (the lowest, 19, by default), so that free
 * computations yield the cores to the event loop and to Chromium's paid renders whenever both
 * want them (a thread may lower its priority, not raise it back). On Linux a
 * thread's id is a valid target of setpriority(2) and affects that thread alone; /proc/thread-self
 * names it. Elsewhere (no /proc) the thread keeps the process's priority: answers true if lowered.
 */
export function lowerThisThreadsPriority(nice = 19): boolean {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(threadId) || threadId <= 0) return false;
    setPriority(threadId, nice);
    return true;
  } catch {
    return false;
  }
}
