import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runPool, type PoolJob } from '../../../scripts/testPool.mjs';

/**
 * npm test's pool (scripts/testPool.mjs): the longest jobs first, no more expected CPU at once than
 * the budget, a tier's cap, and the files that measure latencies alone at the end. Jobs here are
 * timers that record what ran beside them.
 */
const root = join(import.meta.dirname, '..', '..', '..');

type Result = { ok: boolean; cpu: number; ms: number; beside: string[] };
function timerJobs(specs: { name: string; tier?: string; wall: number; cpu: number; exclusive?: boolean }[]) {
  const running = new Set<string>();
  const log: string[] = [];
  const jobs: PoolJob<Result>[] = specs.map(({ name, tier = 'unit', wall, cpu, exclusive = false }) => ({
    name,
    tier,
    wall,
    cpu,
    exclusive,
    async run() {
      log.push(name);
      running.add(name);
      // What runs beside it when it starts (the most at once is always reached at a start).
      const beside = [...running].filter((other) => other !== name);
      await new Promise((resolve) => setTimeout(resolve, wall * 10));
      running.delete(name);
      return { ok: true, cpu, ms: wall * 10, beside };
    },
  }));
  return { jobs, log };
}

test('the longest first; small jobs fill the CPU the long ones leave; never more than the budget', async () => {
  const { jobs, log } = timerJobs([
    { name: 'short', wall: 2, cpu: 2 },
    { name: 'long-waiting', wall: 20, cpu: 5 },
    { name: 'long-busy', wall: 12, cpu: 12 },
    { name: 'medium', wall: 6, cpu: 6 },
  ]);
  const results = await runPool(jobs, { budget: 2.5 });
  assert.deepEqual(log, ['long-waiting', 'long-busy', 'medium', 'short']);
  const share = { short: 1, 'long-waiting': 0.25, 'long-busy': 1, medium: 1 } as Record<string, number>;
  for (const result of results) {
    const used = [result.name, ...result.beside].reduce((sum, name) => sum + share[name]!, 0);
    assert.ok(used <= 2.5, `${result.name} ran beside ${result.beside.join(', ')}`);
  }
  const byName = Object.fromEntries(results.map((result) => [result.name, result]));
  assert.deepEqual(byName['medium']!.beside, ['long-waiting', 'long-busy']);
  assert.ok(byName['short']!.started >= byName['medium']!.ended - 1, 'short waited for room');
});

test('a tier cap holds; a job whose share exceeds the budget still runs when nothing else does', async () => {
  const { jobs } = timerJobs([
    { name: 'e2e-1', tier: 'e2e', wall: 3, cpu: 1 },
    { name: 'e2e-2', tier: 'e2e', wall: 3, cpu: 1 },
    { name: 'e2e-3', tier: 'e2e', wall: 3, cpu: 1 },
    { name: 'greedy', wall: 1, cpu: 10 },
  ]);
  const results = await runPool(jobs, { budget: 2.5, tierCaps: { e2e: 2 } });
  for (const result of results.filter((r) => r.tier === 'e2e'))
    assert.ok(result.beside.filter((name) => name.startsWith('e2e')).length <= 1, `${result.name}: ${result.beside}`);
  assert.deepEqual(results.find((r) => r.name === 'greedy')!.beside, []);
});

test("a capped tier's jobs count as long as what the tier still has to run, so they do not end the run one by one", async () => {
  const { jobs, log } = timerJobs([
    { name: 'long', wall: 9, cpu: 9 },
    { name: 'long2', wall: 5, cpu: 5 },
    { name: 'rel-1', tier: 'reliability', wall: 3, cpu: 3 },
    { name: 'rel-2', tier: 'reliability', wall: 3, cpu: 3 },
    { name: 'rel-3', tier: 'reliability', wall: 3, cpu: 3 },
  ]);
  await runPool(jobs, { budget: 2.5, tierCaps: { reliability: 1 } });
  // The tier's 9 s one at a time rank as a 9 s job (beside long, the longer wall first on a tie);
  // after rel-1 its 6 s still beat long2's 5, after rel-2 its 3 s do not. By wall alone: long,
  // long2, then the three one after another.
  assert.deepEqual(log, ['long', 'rel-1', 'rel-2', 'long2', 'rel-3']);
});

test('the tiers named first (lint, tsc) go before every other job, whatever their wall', async () => {
  const { jobs, log } = timerJobs([
    { name: 'long', wall: 9, cpu: 9 },
    { name: 'tsc', tier: 'lint', wall: 2, cpu: 2 },
    { name: 'lint', tier: 'lint', wall: 3, cpu: 3 },
  ]);
  await runPool(jobs, { budget: 2.5, first: ['lint'] });
  assert.deepEqual(log, ['lint', 'tsc', 'long']);
});

test('an exclusive job (the flood) runs alone, after every other job', async () => {
  const { jobs, log } = timerJobs([
    { name: 'flood', tier: 'reliability', wall: 30, cpu: 30, exclusive: true },
    { name: 'a', wall: 5, cpu: 1 },
    { name: 'b', wall: 4, cpu: 1 },
  ]);
  const results = await runPool(jobs, { budget: 2.5 });
  assert.equal(log.at(-1), 'flood');
  const flood = results.find((r) => r.name === 'flood')!;
  assert.deepEqual(flood.beside, []);
  for (const other of results.filter((r) => r !== flood)) {
    assert.ok(other.ended <= flood.started);
    assert.ok(!other.beside.includes('flood'));
  }
});

test('test/durations.json names only jobs that exist, each with a wall and a CPU figure', () => {
  const { jobs } = JSON.parse(readFileSync(join(root, 'test', 'durations.json'), 'utf8')) as {
    jobs: Record<string, [number, number]>;
  };
  for (const [name, figures] of Object.entries(jobs)) {
    assert.ok(['lint', 'tsc'].includes(name) || existsSync(join(root, name)), `${name} is gone: remove it`);
    assert.ok(figures.length === 2 && figures[0] > 0 && figures[1] >= 0, `${name}: ${figures}`);
  }
  // The pool must know the long files, or they start late and end the run alone.
  for (const file of ['test/bench/benches.test.ts', 'test/browser', 'test/reliability/flood.test.ts'])
    assert.ok(jobs[file], file);
});
