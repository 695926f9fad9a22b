import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { createComputePool, JsonText } from '../../../src/compute/computePool.js';
import { AppError, InputRejected } from '../../../src/errors.js';
import { maximalFreeRequests } from '../../fixtures/maximalFreeRequests.js';

const context = { today: '2026-11-24' };
const lateFee = maximalFreeRequests().find((request) => request.path === '/v1/late-fee')!.body;

/** The nice value of each thread of this process (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

test('a job answers JSON bytes; text bodies are parsed in the worker; input errors come back as InputRejected', async () => {
  const pool = createComputePool({ threads: 1, maxQueued: 8 });
  try {
    const fromValue = await pool.run('v1_late_fee', lateFee, context);
    const fromText = await pool.run('v1_late_fee', new JsonText(JSON.stringify(lateFee)), context);
    assert.ok(Buffer.isBuffer(fromValue));
    assert.deepEqual(fromText, fromValue);
    assert.ok(JSON.parse(fromValue.toString('utf8')).schedule.length >= 1200);
    const refused = await pool.run('v1_late_fee', { ...(lateFee as object), state: 'ZZ' }, context).catch((error: unknown) => error);
    assert.ok(refused instanceof InputRejected);
    assert.equal(refused.code, 'validation_failed');
    assert.deepEqual(refused.issues?.map((issue) => issue.path), ['state']);
    const syntax = (await pool.run('v1_late_fee', new JsonText('{"amount":'), context).catch((error: unknown) => error)) as { status?: number };
    assert.equal(syntax.status, 400, 'a JSON syntax error keeps co-body status for errorMiddleware');
    // Anything unexpected stays a plain Error (HTTP and MCP log it and answer internal_error).
    const unexpected = await pool.run('v1_no_such_job', {}, context).catch((error: unknown) => error);
    assert.ok(unexpected instanceof Error && !(unexpected instanceof AppError));
    assert.match(unexpected.message, /no compute job v1_no_such_job/);
  } finally {
    await pool.close();
  }
});

test('workers run at the lowest CPU priority (nice 19), the event loop keeps its own', async () => {
  const before = threadNiceValues();
  assert.ok(!before.includes(19), `no thread at nice 19 before the pool: ${before}`);
  const pool = createComputePool({ threads: 2, maxQueued: 8 });
  try {
    await Promise.all([pool.run('v1_late_fee', lateFee, context), pool.run('v1_late_fee', lateFee, context)]);
    const during = threadNiceValues();
    assert.equal(during.filter((nice) => nice === 19).length, 2, `two worker threads at nice 19: ${during}`);
    assert.equal(during[0], before[0], 'the main thread (first task) keeps its priority');
  } finally {
    await pool.close();
  }
});

test('beyond maxQueued jobs per thread, a job is refused at once with server_busy', async () => {
  const pool = createComputePool({ threads: 1, maxQueued: 2 });
  try {
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => pool.run('v1_late_fee', lateFee, context)));
    assert.deepEqual(
      results.map((result) => (result.status === 'fulfilled' ? 'ok' : (result.reason as AppError).code)),
      ['ok', 'ok', 'server_busy', 'server_busy', 'server_busy'],
    );
  } finally {
    await pool.close();
  }
});

test('closing fails the jobs in flight (a plain Error: a logged 500) and refuses new ones with shutting_down', async () => {
  const pool = createComputePool({ threads: 1, maxQueued: 8 });
  await pool.run('v1_late_fee', lateFee, context); // the worker is up
  const inFlight = pool.run('v1_late_fee', lateFee, context).catch((error: unknown) => error);
  await pool.close();
  const failed = await inFlight;
  assert.ok(failed instanceof Error && !(failed instanceof AppError), String(failed));
  assert.match(failed.message, /compute worker exited/);
  assert.equal(((await pool.run('v1_late_fee', lateFee, context).catch((error: unknown) => error)) as AppError).code, 'shutting_down');
});

test('a busy pool keeps the process alive until its answer is in; an idle one does not', () => {
  // A process whose only pending work is a job: it must print the answer and then exit by itself.
  const script = `
    import { createComputePool } from ${JSON.stringify(new URL('../../../src/compute/computePool.ts', import.meta.url).href)};
    const pool = createComputePool({ threads: 1, maxQueued: 8 });
    pool.run('v1_late_fee', ${JSON.stringify(lateFee)}, { today: '2026-11-24' }).then((json) => console.log('answered', json.length > 1000));
  `;
  const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(output.trim(), 'answered true');
});
