// The paid service under a flood (flood.test.ts), in a process of its own so that the flood's
// client work doesn't run on the event loop being measured. Answers { url, buyerKeys } once
// listening; exits when the test disconnects.
//
// The payment network (the test chain and its facilitator) runs in a third process, as a
// facilitator does in production (a remote service): in the service's process, the facilitator's
// own signature checks and chain calls would share the event loop being measured.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { BUYER_INDEXES, devKey } from '../../../src/payment/local/devAccounts.js';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/logger.js';
import { startRenderer } from '../../../src/settings.js';
import { startPaidService } from '../../support/paidService.js';
import { cpuByPriority } from '../../support/threadCpu.js';
import { allocationProfile } from './allocationProfile.js';
import { generatePrivateKey } from 'viem/accounts';
import { nodeArgsOf } from '../../support/childEntry.js';

const network = spawn(process.execPath, nodeArgsOf('scripts/local-payment-network.ts'), {
  env: { ...process.env, LOCAL_CHAIN_PORT: '0', LOCAL_FACILITATOR_PORT: '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
// Whatever ends this process (the test's disconnect below, or a crash), the network goes with it.
process.on('exit', () => network.kill('SIGTERM'));
const stopNetwork = async () => {
  if (network.exitCode !== null || network.signalCode !== null) return;
  const exited = once(network, 'exit');
  network.kill('SIGTERM');
  const timer = setTimeout(() => network.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
};
const ready = await new Promise<{ facilitatorUrl: string; payTo: `0x${string}` }>((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('the payment network did not start within 60 s')), 60_000);
  network.once('exit', (code) => reject(new Error(`the payment network exited (${code})`)));
  createInterface({ input: network.stdout! }).on('line', (line) => {
    if (!line.startsWith('{')) return; // its progress lines ("anvil: chain …")
    const message = JSON.parse(line) as { facilitatorUrl?: string; payTo?: `0x${string}` };
    if (message.facilitatorUrl && message.payTo) {
      clearTimeout(timer);
      resolve({ facilitatorUrl: message.facilitatorUrl, payTo: message.payTo });
    }
  });
});

const renderer = await startRenderer(
  loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', RENDER_POOL_SIZE: '2' }),
  createLogger('silent'),
);
// The client limit at its defaults, per address behind one trusted proxy (the flood comes from
// several, each within its own bucket, as an attacker's would); the payer limit off: the paid
// probe's budget is not what is measured.
const service = await startPaidService({
  net: ready,
  renderer,
  env: {
    TRUST_PROXY_HOPS: '1',
    RATE_LIMIT_PAYER_BURST: '0',
    // Signed offers on, as `npm start` has them (its local dev key): every 402 carries them.
    RECEIPT_SIGNING_KEY: generatePrivateKey(),
    ...(process.env.FLOOD_COMPUTE_THREADS ? { COMPUTE_THREADS: process.env.FLOOD_COMPUTE_THREADS } : {}),
  },
});
process.send!({ url: service.url, buyerKeys: BUYER_INDEXES.slice(0, 2).map((index) => devKey(index).privateKey) });
// Where the event loop stalled, from inside: how late its timers ran (a long task or a GC pause
// delays them as it delays /healthz) and V8's garbage-collection pauses on this thread, since the
// last 'cpu' message. Unlike the probe's latencies, they leave out the probe's way to the service.
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();
/** V8's kinds of collection (perf_hooks constants.NODE_PERFORMANCE_GC_*). */
const GC_KINDS: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak callbacks' };
let gcPauses: { ms: number; kind: string }[] = [];
new PerformanceObserver((list) =>
  gcPauses.push(
    ...list.getEntries().map((entry) => ({
      ms: entry.duration,
      kind: GC_KINDS[(entry as { detail?: { kind?: number } }).detail?.kind ?? 0] ?? 'other',
    })),
  ),
).observe({ entryTypes: ['gc'] });
const stalls = () => {
  const percentileMs = (p: number) => loopDelay.percentile(p) / 1e6;
  const report = {
    loopDelayMs: { p50: percentileMs(50), p99: percentileMs(99), max: loopDelay.max / 1e6 },
    gc: {
      pauses: gcPauses.length,
      totalMs: gcPauses.reduce((sum, pause) => sum + pause.ms, 0),
      /** The pauses over 10 ms, longest first, e.g. "42.1 major". */
      long: gcPauses
        .filter((pause) => pause.ms > 10)
        .sort((a, b) => b.ms - a.ms)
        .map((pause) => `${pause.ms.toFixed(1)} ${pause.kind}`),
    },
  };
  loopDelay.reset();
  gcPauses = [];
  return report;
};
export type Stalls = ReturnType<typeof stalls>;
const allocations = process.env.FLOOD_HEAP_PROF ? await allocationProfile(process.env.FLOOD_HEAP_PROF) : undefined;
// 'cpu': this process's CPU time so far by thread priority and its stalls since the last 'cpu'
// (flood.test.ts asks before and after the flood).
process.on('message', (message) => {
  if (message !== 'cpu') return;
  process.send!({ cpu: cpuByPriority(), stalls: stalls() });
  void allocations?.next();
});
process.on('disconnect', () => {
  void service
    .close()
    .then(() => renderer.close())
    .then(stopNetwork)
    .finally(() => process.exit(0));
});
