// The scheduler of `npm test` (scripts/test.mjs): every job of the run (lint, tsc, each test file of
// every tier, the Playwright run) in one pool, the longest first, started while the CPU they are
// expected to use fits the cores, so that a file that mostly waits (on Chromium, on the JVM of
// check-xml, on timers) shares the cores with one that computes, whatever their tiers.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * CPU seconds (user + system) of this process's ended children and the descendants they waited for
 * (Chromium, the JVM of check-xml), from /proc (Linux; 0 elsewhere), in clock ticks of USER_HZ (100).
 */
function childrenCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // cutime and cstime: fields 16 and 17 of stat, 14 and 15 after "pid (comm) ".
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}
let cpuSeen = childrenCpuSeconds();
/**
 * Read when a child has exited (its 'exit' event, emitted right after the wait that added its CPU to
 * ours): the growth since the last reading is that child's CPU. Two children reaped in the same
 * wakeup (within a millisecond) would share one reading; the totals stay right.
 */
function cpuSinceLastReading() {
  const now = childrenCpuSeconds();
  const spent = now - cpuSeen;
  cpuSeen = now;
  return spent;
}

/**
 * The end of a failed job's output that says why: node:test's "failing tests" section (each failed
 * test with its error), else the output's last lines, at most FAILURE_LINES. The run repeats it at
 * its very end (scripts/test.mjs), because CI keeps only the tail of a run's output: a unit group
 * failed in CI at 1d68c58 and that tail named the test but not its error.
 */
export function failuresIn(output) {
  const lines = output.split('\n');
  const section = lines.findLastIndex((line) => /^\S*\s*failing tests:/.test(line.replace(/\x1b\[[0-9;]*m/g, '')));
  const wanted = section >= 0 ? lines.slice(section) : lines.slice(-FAILURE_LINES);
  const kept = wanted.filter((line) => line.trim() !== '');
  return kept.length > FAILURE_LINES
    ? [...kept.slice(0, FAILURE_LINES), `… ${kept.length - FAILURE_LINES} more line(s) above, in the job's output`]
    : kept;
}
const FAILURE_LINES = 40;

/**
 * Runs `command args` as one job of the pool; with `buffered`, its output is printed in one piece
 * when it ends (jobs side by side would interleave their lines). Resolves { ok, cpu, ms }.
 */
export function runProcess(command, args, { cwd, env, buffered, timeoutMs, label }) {
  return new Promise((resolve) => {
    const begin = performance.now();
    const child = spawn(command, args, {
      cwd,
      env,
      stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    let cpu = 0;
    const chunks = [];
    child.on('exit', (_code, signal) => {
      cpu = cpuSinceLastReading();
      // A file whose tests ended but left a server open never exits; say so instead of hanging the run.
      if (signal === 'SIGKILL' && timeoutMs && performance.now() - begin >= timeoutMs) {
        const line = `[test] ${label ?? args.at(-1)}: killed after ${Math.round(timeoutMs / 1000)} s (a test hung, or left a handle open)\n`;
        if (buffered) chunks.push(Buffer.from(line));
        else process.stderr.write(line);
      }
    });
    child.stdout?.on('data', (chunk) => chunks.push(chunk));
    child.stderr?.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => chunks.push(Buffer.from(`${command}: ${error.message}\n`)));
    child.on('close', (code) => {
      const output = buffered ? Buffer.concat(chunks) : undefined;
      if (output) process.stdout.write(output);
      const failures = code !== 0 && output ? failuresIn(output.toString('utf8')) : undefined;
      resolve({ ok: code === 0, cpu, ms: performance.now() - begin, ...(failures && { failures }) });
    });
  });
}

/**
 * Runs `jobs` ({ name, tier, wall, cpu, exclusive, run }: `wall` and `cpu` the seconds it is expected
 * to take, `run()` resolving { ok, cpu, ms, ... }) and resolves every job's result with `started`
 * and `ended` (ms since `origin`).
 *
 * - Order: the longest expected wall first, so that the long files do not end the run alone; a job of a
 *   capped tier counts as long as what its tier still has to run, one cap at a time (its waiting
 *   jobs' walls over the cap): the reliability files (cap 1, 220 s in all) otherwise waited behind
 *   the longer integration groups and ended the run one after another, a core idle beside them.
 *   The jobs of the tiers in `first` go before all others.
 * - Admission: a job starts when the CPU share (cpu / wall) of the running jobs plus its own stays
 *   within `budget` (the cores and a little more: shares are measured on a busy machine), and its
 *   tier has fewer than `tierCaps[tier]` jobs running; the first job that fits starts, so small ones
 *   fill what the big ones leave. With nothing running, the next job starts whatever its share.
 * - `exclusive` jobs (a file that measures latencies) run alone, after all the others.
 */
export async function runPool(jobs, { budget, tierCaps = {}, first = [], origin = performance.now() }) {
  const share = (job) => Math.min(4, job.cpu / Math.max(job.wall, 0.1));
  const waiting = jobs.filter((job) => !job.exclusive);
  /** How long the job's tier still runs at the least: its waiting jobs one cap at a time. */
  const tierChain = (tier) =>
    waiting.filter((job) => job.tier === tier).reduce((sum, job) => sum + job.wall, 0) / (tierCaps[tier] ?? Infinity);
  const urgency = (job) => (first.includes(job.tier) ? Infinity : Math.max(job.wall, tierChain(job.tier)));
  const results = [];
  const running = new Set();
  const runOne = async (job) => {
    const started = performance.now() - origin;
    const result = await job.run();
    results.push({ ...result, name: job.name, tier: job.tier, started, ended: performance.now() - origin });
  };
  await new Promise((resolve) => {
    const startWhatFits = () => {
      // Ties (a capped tier's jobs share its chain) keep the longest of them first.
      const rank = new Map(waiting.map((job) => [job, urgency(job)]));
      waiting.sort((a, b) => (rank.get(b) === rank.get(a) ? b.wall - a.wall : rank.get(b) - rank.get(a)));
      for (let i = 0; i < waiting.length;) {
        const job = waiting[i];
        const used = [...running].reduce((sum, other) => sum + share(other), 0);
        const tierRunning = [...running].filter((other) => other.tier === job.tier).length;
        const fits =
          running.size === 0 || (used + share(job) <= budget && tierRunning < (tierCaps[job.tier] ?? Infinity));
        if (!fits) {
          i += 1;
          continue;
        }
        waiting.splice(i, 1);
        running.add(job);
        void runOne(job).then(() => {
          running.delete(job);
          startWhatFits();
        });
      }
      if (running.size === 0 && waiting.length === 0) resolve();
    };
    startWhatFits();
  });
  for (const job of jobs.filter((job) => job.exclusive)) await runOne(job);
  return results;
}
