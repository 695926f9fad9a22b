import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { createComputePool, type ComputePoolOptions, type Priority } from '../../../src/compute/computePool.js';
import { AppError, InputRejected } from '../../../src/errors.js';
import type { OperationJob, OperationJobResult } from '../../../src/operations/operationJobs.js';
import { maximalFreeRequests } from '../../fixtures/maximalFreeRequests.js';
import { threadStats } from '../../support/threadCpu.js';

const context = { today: '2026-11-24' };
const lateFee = maximalFreeRequests().find((request) => request.path === '/v1/late-fee')!.body;
// The pool with the service's own job module: the operation list's parse and compute.
const jobModule = new URL('../../../src/operations/operationWorker.ts', import.meta.url);
const createPool = (options: Omit<ComputePoolOptions, 'jobModule'>) => {
  const pool = createComputePool({ ...options, jobModule });
  const run = (
    operationId: string,
    body: OperationJob['body'] | unknown,
    jobContext: OperationJob['context'],
    priority?: Priority,
  ) => {
    const job: OperationJob = {
      operationId,
      body: isBody(body) ? body : { value: body },
      context: jobContext,
      compute: true,
    };
    return pool.run(job, priority) as Promise<OperationJobResult>;
  };
  return { run, warm: () => pool.warm(), close: () => pool.close() };
};
const isBody = (body: unknown): body is OperationJob['body'] =>
  typeof body === 'object' && body !== null && 'text' in body && Object.keys(body).length === 1;
const jsonOf = (result: OperationJobResult) => {
  assert.equal(result.kind, 'computed');
  return Buffer.from((result as { json: Uint8Array }).json);
};

/**
 * The nice value of each compute worker of a lane (its thread is named `compute-<lane>`): the
 * lanes are told apart by name, so the test holds whatever priority `npm test` itself runs at.
 */
const laneNiceValues = (lane: string) =>
  threadStats()
    .filter((thread) => thread.name === `compute-${lane}`)
    .map((thread) => thread.nice);
/**
 * The main thread's: its task id is the process id. Not the first task listed: thread ids wrap
 * (pid_max is 32768 here), and a worker's id then sorts before the main thread's.
 */
const mainThreadNice = () => threadStats().find((thread) => thread.tid === process.pid)!.nice;

test('a job answers JSON bytes; text bodies are parsed in the worker; input errors come back as InputRejected', async () => {
  const pool = createPool({ threads: 1, maxQueued: 8 });
  try {
    const fromValue = jsonOf(await pool.run('v1_late_fee', lateFee, context));
    const fromText = jsonOf(await pool.run('v1_late_fee', { text: JSON.stringify(lateFee) }, context));
    assert.deepEqual(fromText, fromValue);
    assert.ok(JSON.parse(fromValue.toString('utf8')).schedule.length >= 1200);
    const refused = await pool
      .run('v1_late_fee', { ...(lateFee as object), state: 'ZZ' }, context)
      .catch((error: unknown) => error);
    assert.ok(refused instanceof InputRejected);
    assert.equal(refused.code, 'validation_failed');
    assert.deepEqual(
      refused.issues?.map((issue) => issue.path),
      ['state'],
    );
    const syntax = await pool.run('v1_late_fee', { text: '{"amount":' }, context).catch((error: unknown) => error);
    assert.ok(syntax instanceof AppError && !(syntax instanceof InputRejected));
    assert.equal(syntax.code, 'invalid_json', 'a JSON syntax error crosses as our own error, as data');
    const proto = await pool
      .run('v1_late_fee', { text: '{"\\u005f_proto__": {}}' }, context)
      .catch((error: unknown) => error);
    assert.ok(proto instanceof InputRejected);
    assert.deepEqual(
      proto.issues?.map((issue) => issue.code),
      ['forbidden_property'],
      'an escaped __proto__ key too',
    );
    // Anything unexpected stays a plain Error (HTTP and MCP log it and answer internal_error).
    const unexpected = await pool.run('v1_no_such_job', {}, context).catch((error: unknown) => error);
    assert.ok(unexpected instanceof Error && !(unexpected instanceof AppError));
    assert.match(unexpected.message, /no operation v1_no_such_job/);
  } finally {
    await pool.close();
  }
});

test('workers run at the lowest CPU priority (nice 19), the event loop keeps its own', async () => {
  assert.deepEqual(laneNiceValues('shared'), [], 'no shared worker before the pool');
  const mainBefore = mainThreadNice();
  const pool = createPool({ threads: 2, maxQueued: 8 });
  try {
    await Promise.all([pool.run('v1_late_fee', lateFee, context), pool.run('v1_late_fee', lateFee, context)]);
    assert.deepEqual(laneNiceValues('shared'), [19, 19], 'two shared workers at nice 19');
    assert.equal(mainThreadNice(), mainBefore, 'the main thread keeps its priority');
  } finally {
    await pool.close();
  }
});

test('warm() starts the shared workers and resolves once each has loaded its job module', async () => {
  const pool = createPool({ threads: 2, maxQueued: 8 });
  try {
    await pool.warm();
    // A worker lowers its priority only once its job module is loaded (computeWorker.ts).
    assert.deepEqual(laneNiceValues('shared'), [19, 19], 'two loaded workers before any job');
    assert.ok(jsonOf(await pool.run('v1_late_fee', lateFee, context)).length > 0);
  } finally {
    await pool.close();
  }
});

test('warm() rejects when a worker cannot load its job module', async () => {
  const pool = createComputePool({
    threads: 1,
    maxQueued: 8,
    jobModule: new URL('./no-such-job-module.ts', import.meta.url),
  });
  try {
    await assert.rejects(pool.warm());
  } finally {
    await pool.close();
  }
});

test('beyond maxQueued jobs per thread, a job is refused at once with server_busy', async () => {
  const pool = createPool({ threads: 1, maxQueued: 2 });
  try {
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => pool.run('v1_late_fee', lateFee, context)),
    );
    assert.deepEqual(
      results.map((result) => (result.status === 'fulfilled' ? 'ok' : (result.reason as AppError).code)),
      ['ok', 'ok', 'server_busy', 'server_busy', 'server_busy'],
    );
  } finally {
    await pool.close();
  }
});

test('a high-priority (paid) job runs on its own worker at the process priority, never behind the free ones', async () => {
  const pool = createPool({ threads: 1, maxQueued: 16 });
  try {
    await pool.run('v1_late_fee', lateFee, context, 'high'); // both workers are up
    await pool.run('v1_late_fee', lateFee, context);
    assert.deepEqual(laneNiceValues('paid'), [mainThreadNice()], 'one paid worker, at the process priority');
    assert.deepEqual(laneNiceValues('shared'), [19], 'one shared worker at nice 19');
    const order: string[] = [];
    const track = (name: string, priority: Priority) =>
      pool.run('v1_late_fee', lateFee, context, priority).then(() => order.push(name));
    const normals = Array.from({ length: 8 }, (_, i) => track(`normal ${i + 1}`, 'normal'));
    await Promise.all([...normals, track('high', 'high')]);
    // Queued last, answered long before the free jobs queued ahead of it on the shared worker.
    assert.ok(order.indexOf('high') < order.indexOf('normal 8'), order.join(', '));
  } finally {
    await pool.close();
  }
});

test("an unpaid job (a paid route's body without payment) runs on its own worker at nice 10, below the event loop and above free work", async () => {
  const pool = createPool({ threads: 1, maxQueued: 16 });
  try {
    await pool.run('v1_late_fee', lateFee, context, 'unpaid');
    // 10 below the process's own priority, never above it (at nice 0: 10; under `nice -n 15`: 19).
    assert.deepEqual(laneNiceValues('unpaid'), [Math.min(19, mainThreadNice() + 10)], 'one unpaid worker');
    // No paid worker started for it: the process's own priority stays the event loop's and paid bodies'.
    await pool.run('v1_late_fee', lateFee, context);
    assert.deepEqual(laneNiceValues('paid'), []);
    assert.deepEqual(laneNiceValues('shared'), [19]);
    const order: string[] = [];
    const track = (name: string, priority: Priority) =>
      pool.run('v1_late_fee', lateFee, context, priority).then(() => order.push(name));
    // Queued last behind free jobs, an unpaid job is answered long before them (by its own worker or, free, the shared one).
    await Promise.all([
      ...Array.from({ length: 8 }, (_, i) => track(`normal ${i + 1}`, 'normal')),
      track('unpaid', 'unpaid'),
    ]);
    assert.ok(order.indexOf('unpaid') < order.indexOf('normal 8'), order.join(', '));
  } finally {
    await pool.close();
  }
});

test('high jobs waiting go before normal ones on a shared worker too', async () => {
  const pool = createPool({ threads: 1, maxQueued: 16 });
  try {
    const order: string[] = [];
    const track = (name: string, priority: Priority) =>
      pool.run('v1_late_fee', lateFee, context, priority).then(() => order.push(name));
    // The paid worker starts on the first high job; meanwhile the shared one, once free, takes high jobs first.
    await Promise.all([
      track('normal 1', 'normal'),
      track('normal 2', 'normal'),
      ...Array.from({ length: 6 }, (_, i) => track(`high ${i + 1}`, 'high')),
    ]);
    // normal 2 waited for normal 1 on the shared worker; by then a high job was answered (by either worker).
    assert.ok(order.indexOf('normal 2') > order.findIndex((name) => name.startsWith('high')), order.join(', '));
  } finally {
    await pool.close();
  }
});

test('closing fails the jobs in flight (a plain Error: a logged 500) and refuses new ones with shutting_down', async () => {
  const pool = createPool({ threads: 1, maxQueued: 8 });
  await pool.run('v1_late_fee', lateFee, context); // the worker is up
  const inFlight = pool.run('v1_late_fee', lateFee, context).catch((error: unknown) => error);
  await pool.close();
  const failed = await inFlight;
  assert.ok(failed instanceof Error && !(failed instanceof AppError), String(failed));
  assert.match(failed.message, /compute worker exited/);
  assert.equal(
    ((await pool.run('v1_late_fee', lateFee, context).catch((error: unknown) => error)) as AppError).code,
    'shutting_down',
  );
});

test('a busy pool keeps the process alive until its answer is in; an idle one does not', () => {
  // A process whose only pending work is a job: it must print the answer and then exit by itself.
  const script = `
    import { createComputePool } from ${JSON.stringify(new URL('../../../src/compute/computePool.ts', import.meta.url).href)};
    const pool = createComputePool({ threads: 1, maxQueued: 8, jobModule: new URL(${JSON.stringify(jobModule.href)}) });
    pool.run({ operationId: 'v1_late_fee', body: { value: ${JSON.stringify(lateFee)} }, context: { today: '2026-11-24' }, compute: true }).then((result) => console.log('answered', result.json.length > 1000));
  `;
  const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(output.trim(), 'answered true');
});
