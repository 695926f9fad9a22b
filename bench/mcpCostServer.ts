// The service for bench/mcpCost.ts, in a process of its own so that the event-loop time it reports
// is the service's alone (the bench's client runs in the parent). It answers the parent's "elu"
// messages with its event loop's active milliseconds so far.
import { performance } from 'node:perf_hooks';
import { startTestApp } from '../test/support/testApp.js';

const app = await startTestApp({ RATE_LIMIT_CLIENT_BURST: '0', RATE_LIMIT_PAYER_BURST: '0', COMPUTE_THREADS: '1' });
process.on('message', (message) => {
  if (message === 'elu') process.send!({ activeMs: performance.eventLoopUtilization().active });
  if (message === 'stop') void app.close().then(() => process.exit(0));
});
process.send!({ url: app.url });
