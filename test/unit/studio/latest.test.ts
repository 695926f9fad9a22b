import assert from 'node:assert/strict';
import { test } from 'node:test';
import { latest, type LatestTimers } from '../../../src/http/studio/client/latest.js';

/** A clock the test moves by hand: only what is due runs. */
function manualTimers(): LatestTimers & { advance(ms: number): void } {
  let now = 0;
  let next = 0;
  const pending = new Map<number, { at: number; callback: () => void }>();
  return {
    setTimeout(callback, ms) {
      next += 1;
      pending.set(next, { at: now + ms, callback });
      return next;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
    advance(ms) {
      now += ms;
      for (const [handle, timer] of [...pending]) {
        if (timer.at <= now) {
          pending.delete(handle);
          timer.callback();
        }
      }
    },
  };
}

test('schedule waits for a pause: keystrokes closer than the delay start one run', () => {
  const timers = manualTimers();
  let runs = 0;
  const runner = latest(async () => void (runs += 1), { delayMs: 400, timers });
  for (let key = 0; key < 5; key += 1) {
    runner.schedule();
    timers.advance(300);
  }
  assert.equal(runs, 0);
  timers.advance(100);
  assert.equal(runs, 1);
  timers.advance(1000);
  assert.equal(runs, 1);
});

test('a newer run aborts the one in flight, whose failure is then not reported', async () => {
  const signals: AbortSignal[] = [];
  const errors: unknown[] = [];
  const finish: (() => void)[] = [];
  const runner = latest(
    (signal) =>
      new Promise<void>((resolve, reject) => {
        signals.push(signal);
        signal.addEventListener('abort', () => reject(new Error('aborted')));
        finish.push(resolve);
      }),
    { delayMs: 0, onError: (error) => errors.push(error) },
  );
  runner.now();
  runner.now();
  assert.equal(signals.length, 2);
  assert.equal(signals[0]!.aborted, true);
  assert.equal(signals[1]!.aborted, false);
  finish[1]!();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(errors, []);
});

test('a run that fails on its own is reported; cancel stops a waiting one', async () => {
  const timers = manualTimers();
  const errors: unknown[] = [];
  let runs = 0;
  const runner = latest(
    async () => {
      runs += 1;
      throw new Error('broken');
    },
    { delayMs: 400, timers, onError: (error) => errors.push(error) },
  );
  runner.now();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal((errors[0] as Error).message, 'broken');
  runner.schedule();
  runner.cancel();
  timers.advance(1000);
  assert.equal(runs, 1);
});
