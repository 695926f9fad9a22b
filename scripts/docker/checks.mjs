// What a failed check is, and how a Docker test run ends: its own message for a failed check, the
// stack for anything unexpected, exit code 1 either way.
import { rmSync } from 'node:fs';

/** A check that did not hold: reported by its message alone (no stack: the message says it all). */
export class Failure extends Error {}

export function check(condition, message) {
  if (!condition) throw new Failure(message);
}

export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `test`; on failure removes its scratch folder `work`, says why, and exits with 1. */
export function runTest(say, work, test) {
  test().catch((error) => {
    rmSync(work, { recursive: true, force: true });
    say(
      `FAILED: ${error instanceof Failure ? error.message : `${error?.stack ?? String(error)}${error?.cause ? `\ncause: ${error.cause.stack ?? error.cause}` : ''}`}`,
    );
    process.exit(1);
  });
}
