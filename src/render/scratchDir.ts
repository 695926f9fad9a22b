import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Chromium's files on disk: one folder per renderer, `<root>/render-<pid>-XXXXXX`, holding a fresh
 * user-data-dir per browser launch and serving as the browsers' TMPDIR (a killed browser leaves
 * an org.chromium.Chromium.* folder behind there). At start we delete the folders of processes
 * that no longer exist; folders of live processes are left alone, so a test run beside a
 * development server doesn't pull the floor from under it.
 */
const DEFAULT_SCRATCH_ROOT = join(tmpdir(), 'invoice-pdf-chromium');

export interface ScratchDir {
  path: string;
  /** A new, empty user-data-dir for one browser. */
  profile(): string;
  /**
   * Best effort and in the background: a browser's profile is deleted off the main thread (a sync
   * delete measured 107 ms of blocked event loop under the unpaid flood, delaying /healthz);
   * whatever stays behind goes with close() or the next start.
   */
  remove(path: string): void;
  close(): void;
}

export function openScratchDir(root: string = DEFAULT_SCRATCH_ROOT): ScratchDir {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  for (const name of readdirSync(root)) {
    const pid = /^render-(\d+)-/.exec(name)?.[1];
    if (pid === undefined || !isAlive(Number(pid))) {
      removeQuietly(join(root, name));
    }
  }
  const path = mkdtempSync(join(root, `render-${process.pid}-`));
  return {
    path,
    profile: () => mkdtempSync(join(path, 'profile-')),
    remove: (dir) => {
      rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(() => undefined);
    },
    close: () => removeQuietly(path),
  };
}

/**
 * Helper processes of a killed browser can still be writing into its profile for a moment
 * (ENOTEMPTY while deleting); retry a few times, and never let cleanup fail a render or the service.
 */
function removeQuietly(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  } catch {
    // left for close() or the next start
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
