import { readlinkSync, writeFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** This thread's id on Linux (/proc/thread-self names it); undefined elsewhere. */
function thisThreadsId(): number | undefined {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(threadId) && threadId > 0 ? threadId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Lowers the calling thread's CPU priority by `steps` nice values below the one it was created
 * with (its process's), at most to 19, the lowest; so that free computations yield the cores to
 * the event loop and to Chromium's paid renders whenever both want them. Never raises it: a service
 * started at nice 15 runs its nice-10 lane at 19, not at 10 above its own event loop (which root
 * could do). On Linux a thread's id is a valid target of setpriority(2) and affects that thread
 * alone. Elsewhere (no /proc) the thread keeps the process's priority: answers true if lowered.
 */
export function lowerThisThreadsPriority(steps: number): boolean {
  const threadId = thisThreadsId();
  if (threadId === undefined) return false;
  try {
    const own = getPriority(threadId);
    const lowered = Math.min(19, own + steps);
    if (lowered <= own) return false;
    setPriority(threadId, lowered);
    return true;
  } catch {
    return false;
  }
}

/**
 * Names the calling thread (at most 15 bytes), as `top -H` and `ps -L` show it: an operator sees
 * which compute lane spends the CPU, and tests find a lane's thread by name. No-op without /proc.
 */
export function nameThisThread(name: string): void {
  if (thisThreadsId() === undefined) return;
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // A name is a convenience: a read-only /proc leaves the default one.
  }
}
