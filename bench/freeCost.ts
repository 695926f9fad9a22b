// Serial cost of maximal free requests (issue 19): each answer's latency with nothing else running
// is, for these pure operations, about the time the event loop is blocked by it.
import { maximalFreeRequests } from '../test/fixtures/maximalFreeRequests.js';
import { startTestApp } from '../test/support/testApp.js';

const app = await startTestApp({ RATE_LIMIT_CLIENT_BURST: '0', RATE_LIMIT_PAYER_BURST: '0' });
for (const request of maximalFreeRequests()) {
  const body = JSON.stringify(request.body);
  const times: number[] = [];
  let status = 0;
  for (let i = 0; i < 12; i++) {
    const started = performance.now();
    const response = await fetch(`${app.url}${request.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await response.arrayBuffer();
    status = response.status;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(`${request.name}: ${status}, request ${(body.length / 1024).toFixed(0)} KiB, median ${times[6]!.toFixed(1)} ms`);
}
await app.close();
