// The flood of flood.test.ts, in a process of its own so that the attacker's client work doesn't
// run on the event loop that times the probes. An attacker is on another machine; here it shares
// the two cores, so it runs at nice 19 (FLOOD_CLIENT_NICE overrides): its own client work (sending
// 130 requests a second, reading their answers: a third of a core) must not be counted against
// the service. It still sends as many requests (3,882–4,064 in 30 s at nice 19, 3,936–4,020 at
// nice 0, measured 2026-11-24): the service sets the pace, not the flooder. Sends every kind of maximal request
// (fixtures/maximalFloodRequests.ts, pre-serialised) from several client addresses
// (X-Forwarded-For, one trusted proxy) at the given concurrency until the deadline, reads every
// answer, and reports per request kind how many of each status it got and their latencies.
import { setPriority } from 'node:os';
import { CLIENT_ADDRESSES, maximalFloodRequests, type KindReport } from '../../fixtures/maximalFloodRequests.js';

setPriority(Number(process.env.FLOOD_CLIENT_NICE ?? 19));

process.once(
  'message',
  async ({ url, concurrency, durationMs }: { url: string; concurrency: number; durationMs: number }) => {
    const kinds = maximalFloodRequests().map((request) => ({
      ...request,
      bytes: Buffer.from(JSON.stringify(request.body)),
    }));
    const reports: Record<string, KindReport> = Object.fromEntries(
      kinds.map((kind) => [kind.name, { statuses: {}, latenciesMs: [] }]),
    );
    const end = performance.now() + durationMs;
    let sent = 0;
    let bytes = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async (_, worker) => {
        const headers = {
          'content-type': 'application/json',
          // MCP's streamable HTTP transport wants both; the JSON routes ignore it.
          accept: 'application/json, text/event-stream',
          'x-forwarded-for': `198.51.100.${worker % CLIENT_ADDRESSES}`,
        };
        for (let i = worker; performance.now() < end; i++) {
          const kind = kinds[i % kinds.length]!;
          const started = performance.now();
          const response = await fetch(`${url}${kind.path}`, {
            method: kind.method ?? 'POST',
            headers,
            body: kind.bytes,
            signal: AbortSignal.timeout(60_000),
          });
          await response.arrayBuffer();
          sent++;
          bytes += kind.bytes.length;
          const report = reports[kind.name]!;
          report.latenciesMs.push(performance.now() - started);
          report.statuses[response.status] = (report.statuses[response.status] ?? 0) + 1;
        }
      }),
    );
    process.send!({ sent, bytes, reports }, () => process.exit(0));
  },
);
process.send!('ready');
