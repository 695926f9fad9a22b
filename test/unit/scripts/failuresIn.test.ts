import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { failuresIn, runProcess } from '../../../scripts/testPool.mjs';

/**
 * What npm test repeats of a failed job at the end of its output (CI keeps only the tail): node:test's
 * "failing tests" section with each error, else the job's last lines, at most 40.
 */

test('a failed node:test file: its "failing tests" section, with the error, from a real run', () => {
  const script = [
    "const { test } = require('node:test');",
    "test('fine', () => {});",
    "test('broken', () => { throw new Error('the reason, 42 !== 43'); });",
  ].join('\n');
  // Captured here, not printed: this file's own report must not carry a failing test's lines.
  const run = spawnSync(process.execPath, ['--test-reporter=spec', '-e', script], { encoding: 'utf8' });
  assert.equal(run.status, 1);
  const failures = failuresIn(run.stdout + run.stderr);
  assert.match(failures[0]!, /failing tests:/);
  assert.ok(failures.some((line) => line.includes('broken')));
  assert.ok(failures.some((line) => line.includes('the reason, 42 !== 43')));
  assert.ok(!failures.some((line) => /✔ fine/.test(line)), 'passing tests are left out');
});

test('runProcess gives a failed job its failures, a passed one none', async () => {
  const failed = await runProcess(
    process.execPath,
    ['-e', "console.log('[runProcess] the last words'); process.exit(3)"],
    {
      cwd: process.cwd(),
      buffered: true,
    },
  );
  assert.equal(failed.ok, false);
  assert.deepEqual(failed.failures, ['[runProcess] the last words']);
  const passed = await runProcess(process.execPath, ['-e', 'process.exit(0)'], { cwd: process.cwd(), buffered: true });
  assert.equal(passed.ok, true);
  assert.equal(passed.failures, undefined);
});

test('no such section (a crash): the last lines; long sections are cut at 40 lines', () => {
  const crash = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
  const last = failuresIn(crash);
  assert.equal(last.length, 40);
  assert.equal(last.at(-1), 'line 99');
  const long = failuresIn(`✔ ok\n\n✖ failing tests:\n\n${crash}`);
  assert.equal(long.length, 41);
  assert.equal(long[0], '✖ failing tests:');
  assert.match(long.at(-1)!, /^… 61 more line\(s\)/);
});
