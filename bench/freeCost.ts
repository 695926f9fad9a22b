// Serial cost of maximal free requests. With COMPUTE_THREADS=0 an answer's latency with
// nothing else running is, for these pure operations, about the time the event loop is blocked by
// it; the same requests computed on a worker thread (the default) show what the hand-off costs a
// lone client, as a ratio against that baseline measured in the same run.
import { maximalFreeRequests } from '../test/fixtures/maximalFreeRequests.js';
import { startTestApp } from '../test/support/testApp.js';
import { scaled } from './scale.js';

const SAMPLES = scaled(15);
const limitsOff = { RATE_LIMIT_CLIENT_BURST: '0', RATE_LIMIT_PAYER_BURST: '0' };
const inline = await startTestApp({ ...limitsOff, COMPUTE_THREADS: '0' });
const offloaded = await startTestApp({ ...limitsOff, COMPUTE_THREADS: '1' });

async function median(url: string, path: string, body: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

for (const request of maximalFreeRequests()) {
  const body = JSON.stringify(request.body);
  await median(offloaded.url, request.path, body); // the worker starts, code warms up
  const onLoop = await median(inline.url, request.path, body);
  const onWorker = await median(offloaded.url, request.path, body);
  console.log(
    `${request.name}: request ${(body.length / 1024).toFixed(0)} KiB; median on the event loop ${onLoop.toFixed(1)} ms (the time it blocks it), on a worker ${onWorker.toFixed(1)} ms (${(onWorker / onLoop).toFixed(2)}×, the event loop free)`,
  );
}
await inline.close();
await offloaded.close();
