// Reliability property 11: the event loop stays responsive under a flood, from several client
// addresses, of the maximal body of every free JSON operation (late fee over 100 years, timesheet
// at its limits, validate and e-invoice validate of 200-line invoices, the small helpers), of the
// same maximal invoices unpaid to every paid operation, and of MCP tool calls, at concurrency 32.
// Targets: /healthz p99 ≤ 50 ms (asserted in the long run, 30 s, and in the short one when nothing
// outside this test took the machine's CPU during the flood), a paid request's p50 at most 1.5× its
// quiet baseline (long run), and, on any machine, the service's CPU per request by thread priority
// read from /proc. The service runs in a process of its own (support/floodTarget.ts, which runs the
// payment network in a third), and so do the flood (support/flooder.ts) and the /healthz probe
// (support/healthProbe.ts); this one only pays.
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { after, before, test } from 'node:test';
import { x402Client } from '@x402/core/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { CLIENT_ADDRESSES, maximalFloodRequests, type KindReport } from '../fixtures/maximalFloodRequests.js';
import { operationList } from '../../src/operations/operationList.js';
import { figure, LONG, ms, percentile, timingTarget, variant } from './harness.js';
import type { cpuByPriority } from '../support/threadCpu.js';
import { foreignCpu } from './support/machineCpu.js';
import type { Stalls } from './support/floodTarget.js';
import { childEntryOf } from '../support/childEntry.js';

const CONCURRENCY = 32;
const FLOOD_MS = variant(6_000, 30_000);

let target: ChildProcess;
let flooder: ChildProcess | undefined;
let probe: ChildProcess | undefined;
let url = '';
let buyerKeys: `0x${string}`[] = [];

before(
  async () => {
    const entry = childEntryOf(new URL('./support/floodTarget.ts', import.meta.url));
    target = fork(entry.path, {
      // FLOOD_CPU_PROF=<folder>: the service's main thread profiled (a .cpuprofile there at exit),
      // to see where it spends the flood; FLOOD_NODE_FLAGS: more flags for the service's process
      // (e.g. "--trace-gc --trace-gc-nvp", a V8 heap setting to try); FLOOD_HEAP_PROF: see
      // support/allocationProfile.ts (docs/reliability.md).
      execArgv: [
        ...entry.execArgv,
        ...(process.env.FLOOD_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.FLOOD_CPU_PROF}`] : []),
        ...(process.env.FLOOD_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
      ],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    ({ url, buyerKeys } = await new Promise<{ url: string; buyerKeys: `0x${string}`[] }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the flood target did not start within 60 s')), 60_000);
      target.once('message', (message: { url: string; buyerKeys: `0x${string}`[] }) => {
        clearTimeout(timer);
        resolve(message);
      });
      target.once('exit', (code) => reject(new Error(`the flood target exited (${code})`)));
    }));
  },
  { timeout: 70_000 },
);
after(async () => {
  if (flooder && flooder.exitCode === null) flooder.kill('SIGKILL');
  if (probe && probe.exitCode === null) probe.kill('SIGKILL');
  if (!target || target.exitCode !== null) return;
  const exited = new Promise((resolve) => target.once('exit', resolve));
  target.disconnect();
  const timer = setTimeout(() => target.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
});

type TargetCpu = ReturnType<typeof cpuByPriority> & { stalls: Stalls };
/** The service process's CPU time so far by thread priority, and its event loop's stalls since it was last asked (support/floodTarget.ts answers 'cpu'). */
function targetCpu(): Promise<TargetCpu> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the flood target did not report its CPU within 10 s')), 10_000);
    const listener = (message: { cpu?: ReturnType<typeof cpuByPriority>; stalls?: Stalls }) => {
      if (!message.cpu || !message.stalls) return;
      clearTimeout(timer);
      target.off('message', listener);
      resolve({ ...message.cpu, stalls: message.stalls });
    };
    target.on('message', listener);
    target.send('cpu');
  });
}

/** Other processes' CPU during the flood, in cores, beyond which the machine wasn't the flood's alone. */
const QUIET_FOREIGN_CORES = 0.1;

/** Forks one of the flood's helper processes (support/) and waits for its 'ready'; `message` awaits its next one (rejects if it exits first). */
async function helper(file: string) {
  const entry = childEntryOf(new URL(file, import.meta.url));
  const child = fork(entry.path, {
    execArgv: entry.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`${file} exited (${code}) before reporting`))),
  );
  exited.catch(() => {});
  const message = <T>() => Promise.race([new Promise<T>((resolve) => child.once('message', resolve)), exited]);
  await message<'ready'>();
  return { child, message };
}

/** Times `run` back to back until `until` says stop (with a pause between, for probes). */
async function sample(run: () => Promise<void>, until: () => boolean, pauseMs: number): Promise<number[]> {
  const times: number[] = [];
  while (!until()) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
    if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return times;
}

test('11 flood: the flood sends every operation with a request body (and MCP calls)', () => {
  const flooded = new Set(maximalFloodRequests().map((request) => `${request.method ?? 'POST'} ${request.path}`));
  const operations = operationList()
    .filter((operation) => operation.request)
    .map((operation) => `${operation.method} ${operation.path}`);
  assert.deepEqual(
    operations.filter((operation) => !flooded.has(operation)),
    [],
    'every operation of the list is flooded',
  );
  assert.ok(flooded.has('POST /mcp'));
});

test(
  '11 flood: /healthz and paid requests stay fast under a flood of maximal free requests',
  { timeout: variant(120_000, 240_000) },
  async () => {
    const healthProbe = await helper('./support/healthProbe.ts');
    probe = healthProbe.child;
    /** /healthz timed from the probe's own process (support/healthProbe.ts). */
    const healthz = (order: { count?: number; durationMs?: number; pauseMs: number }) => {
      const latencies = healthProbe.message<number[]>();
      healthProbe.child.send({ url, ...order });
      return latencies;
    };
    const payer = wrapFetchWithPayment(
      fetch,
      new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(buyerKeys[0]!))),
    );
    let paidNumber = 0;
    const paid = async () => {
      const response = await payer(`${url}/v1/invoice.pdf`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...EXAMPLE_INVOICE, invoice_number: `FLOOD-${paidNumber++}` }),
        signal: AbortSignal.timeout(60_000),
      });
      assert.equal(response.status, 200, await response.clone().text());
      await response.arrayBuffer();
    };

    // Quiet baselines. A paid request's quiet p50 moves by ±10 % between runs of 20 (37 to 47 ms
    // measured), which alone moved the ratio from 1.34× to 1.57×: the long run takes 60 after
    // three warm-ups.
    for (let i = 0; i < 3; i++) await paid();
    const quietPaid = await sample(
      paid,
      (
        (n) => () =>
          n-- <= 0
      )(variant(20, 60)),
      0,
    );
    // The probe's first requests load fetch and open its connection (30-60 ms, once): not the service's.
    await healthz({ count: 5, pauseMs: 10 });
    const quietHealthz = await healthz({ count: 100, pauseMs: 10 });

    // The flood (another process: support/flooder.ts), with a /healthz probe every 20 ms (another:
    // support/healthProbe.ts) and one paid client (this process) alongside.
    const flood = await helper('./support/flooder.ts');
    flooder = flood.child;
    // For the record only: the 1-minute load counts this test's own start (the payment network,
    // Chromium, the workers: 2.4-2.7 after a quiet minute), so it can't say whether others ran.
    const load = loadavg()[0]!;
    const cpuBefore = await targetCpu();
    const machine = foreignCpu();
    const flooded = flood.message<{ sent: number; bytes: number; reports: Record<string, KindReport> }>();
    flood.child.send({ url, concurrency: CONCURRENCY, durationMs: FLOOD_MS });
    const end = performance.now() + FLOOD_MS;
    const over = () => performance.now() >= end;
    const [floodHealthz, floodPaid, { sent, bytes, reports }] = await Promise.all([
      healthz({ durationMs: FLOOD_MS, pauseMs: 20 }),
      sample(paid, over, 0),
      flooded,
    ]);
    const foreignCores = machine.foreignCores();
    const cpuAfter = await targetCpu();

    const healthzP50 = percentile(floodHealthz, 50);
    const healthzP99 = percentile(floodHealthz, 99);
    const paidRatio = percentile(floodPaid, 50) / percentile(quietPaid, 50);
    // CPU per request the service answered during the flood (the flood's, the probes', the paid
    // client's), by thread: what the event loop spent, what other threads at its priority took of
    // the cores it runs on, and what ran below it. Load-independent, unlike the latencies.
    const answered = sent + floodHealthz.length + floodPaid.length;
    const perRequest = (before: number, after: number) => `${((after - before) / answered).toFixed(2)} ms`;
    const eventLoopMs = (cpuAfter.eventLoopMs - cpuBefore.eventLoopMs) / answered;
    const samePriorityMs = (cpuAfter.samePriorityMs - cpuBefore.samePriorityMs) / answered;
    const lowered = Object.keys(cpuAfter.loweredMs)
      .map(
        (nice) =>
          `nice ${nice}: ${perRequest(cpuBefore.loweredMs[Number(nice)] ?? 0, cpuAfter.loweredMs[Number(nice)]!)}`,
      )
      .join(', ');
    figure(
      '11 flood, CPU per request',
      `event loop ${eventLoopMs.toFixed(2)} ms, other threads at its priority ${samePriorityMs.toFixed(2)} ms, below it ${lowered} (${answered} requests; /proc, load-independent)`,
    );
    const { loopDelayMs, gc } = cpuAfter.stalls;
    figure(
      '11 flood, service stalls',
      `event loop delay p50 ${loopDelayMs.p50.toFixed(1)} / p99 ${loopDelayMs.p99.toFixed(1)} / max ${loopDelayMs.max.toFixed(1)} ms; ` +
        `${gc.pauses} GC pauses on it, ${gc.totalMs.toFixed(0)} ms in all, over 10 ms: ${gc.long.join(', ') || 'none'} (inside the service, during the flood)`,
    );
    figure(
      '11 flood',
      `${sent} maximal requests (${(bytes / 1024 / 1024).toFixed(1)} MiB) in ${(FLOOD_MS / 1000).toFixed(0)} s at concurrency ${CONCURRENCY} from ${CLIENT_ADDRESSES} addresses; ` +
        `/healthz p50 ${ms(healthzP50)} / p99 ${ms(healthzP99)} (quiet ${ms(percentile(quietHealthz, 50))} / ${ms(percentile(quietHealthz, 99))}, ${floodHealthz.length} probes); ` +
        `paid p50 ${ms(percentile(floodPaid, 50))} vs quiet ${ms(percentile(quietPaid, 50))} (${paidRatio.toFixed(2)}×, ${floodPaid.length} paid during the flood)`,
    );
    for (const request of maximalFloodRequests()) {
      const { statuses, latenciesMs } = reports[request.name]!;
      figure(
        '11 flood, per kind',
        `${request.name}: ${Object.entries(statuses)
          .map(([status, n]) => `${n}× ${status}`)
          .join(', ')}; p50 ${ms(percentile(latenciesMs, 50))} / p99 ${ms(percentile(latenciesMs, 99))}`,
      );
      // Its own answer, or a 429 when one address outran its bucket: never a 5xx, never another refusal.
      assert.deepEqual(
        Object.keys(statuses).filter((status) => Number(status) !== request.expect && status !== '429'),
        [],
        `${request.name}: ${JSON.stringify(statuses)}`,
      );
      assert.ok(statuses[request.expect], `${request.name} answered ${request.expect} at least once`);
    }
    assert.ok(sent > 0 && floodPaid.length > 0);
    // The event loop only reads bodies, hands them over and writes answers: 2-3 ms of its CPU per
    // request measured (2026-12-06). A body parsed or validated on it again (3-25 ms each) would
    // double that, whatever the machine's load.
    assert.ok(eventLoopMs <= 6, `the event loop spent ${eventLoopMs.toFixed(2)} ms of CPU per request (> 6)`);
    // What else takes the cores at the event loop's priority, against the work lowered below it:
    // 2.3× as much (5.0-5.9 ms per request) while V8's shared background threads compiled for the
    // lowered workers and unpaid bodies were validated on the paid worker; 0.25-0.5× since
    // (computePool.ts). Lowered work must stay lowered.
    const loweredMs =
      Object.values(cpuAfter.loweredMs).reduce((sum, value) => sum + value, 0) -
      Object.values(cpuBefore.loweredMs).reduce((sum, value) => sum + value, 0);
    assert.ok(
      samePriorityMs * answered <= loweredMs,
      `threads at the event loop's priority spent ${samePriorityMs.toFixed(2)} ms of CPU per request, more than the lowered workers' ${(loweredMs / answered).toFixed(2)} ms`,
    );
    // The latencies are the targets, but they measure the machine too: /healthz p99 is asserted
    // whenever the flood had the machine to itself (work outside this test's processes took at most
    // QUIET_FOREIGN_CORES of a core on average during it; kernel threads alone take about 0.02), and
    // in the long run (`npm run reliability`, a machine to itself).
    assert.ok(foreignCores >= 0 && foreignCores <= availableParallelism() + 0.5, `other work: ${foreignCores} cores`);
    const quiet = foreignCores <= QUIET_FOREIGN_CORES;
    figure(
      '11 flood, machine',
      `other work took ${foreignCores.toFixed(2)} of ${availableParallelism()} cores during the flood (load ${load.toFixed(1)} before it): ` +
        (quiet || LONG
          ? '/healthz p99 target asserted'
          : `NOT QUIET (more than ${QUIET_FOREIGN_CORES}): /healthz p99 target not asserted`),
    );
    if (quiet || LONG) assert.ok(healthzP99 <= 50, `/healthz p99 ${ms(healthzP99)} > 50 ms during the flood`);
    // 6 s is too short for a steady paid ratio (±10 % in the quiet p50 alone): the long run only.
    timingTarget(paidRatio <= 1.5, `paid p50 ${paidRatio.toFixed(2)}× its quiet baseline (> 1.5×)`);
  },
);
