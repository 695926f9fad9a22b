// The flood of flood.test.ts, in a process of its own so that the attacker's client work doesn't
// run on the event loop that times the probes (an attacker is on another machine; here it shares
// the cores, which is the harder case for the service). Sends the maximal free requests
// (pre-serialised) at the given concurrency until the deadline, reads every answer, and reports
// how many of each status it got.
import { maximalFreeRequests } from '../../fixtures/maximalFreeRequests.js';

process.once('message', async ({ url, concurrency, durationMs }: { url: string; concurrency: number; durationMs: number }) => {
  const bodies = maximalFreeRequests().map((request) => ({ ...request, bytes: Buffer.from(JSON.stringify(request.body)) }));
  const statuses: Record<string, number> = {};
  const end = performance.now() + durationMs;
  let sent = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let i = worker; performance.now() < end; i++) {
        const request = bodies[i % bodies.length]!;
        const response = await fetch(`${url}${request.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: request.bytes, signal: AbortSignal.timeout(60_000) });
        await response.arrayBuffer();
        sent++;
        const key = `${request.path} ${response.status}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
      }
    }),
  );
  process.send!({ sent, statuses }, () => process.exit(0));
});
process.send!('ready');
