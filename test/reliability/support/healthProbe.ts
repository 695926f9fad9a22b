// The /healthz probe of flood.test.ts, in a process of its own, as a load balancer's or kubelet's
// probe is: in the test process it shared an event loop with the paid client (its payment
// signatures, its PDFs read), whose turns it waited for and counted as the service's latency.
// Told { url, count | durationMs, pauseMs }, it times GET /healthz back to back with a pause between
// and answers the latencies in ms (a non-200 answer fails it: it exits 1).
type Order = { url: string; count?: number; durationMs?: number; pauseMs: number };

process.on('message', async ({ url, count, durationMs, pauseMs }: Order) => {
  const end = performance.now() + (durationMs ?? Infinity);
  const latencies: number[] = [];
  while (performance.now() < end && latencies.length < (count ?? Infinity)) {
    const started = performance.now();
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(30_000) });
    await response.arrayBuffer();
    if (response.status !== 200) {
      console.error(`/healthz answered ${response.status}`);
      process.exit(1);
    }
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  process.send!(latencies);
});
process.send!('ready');
