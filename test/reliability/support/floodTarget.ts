// The paid service under a flood (flood.test.ts), in a process of its own so that the flood's
// client work doesn't run on the event loop being measured. Answers { url, buyerKeys } once
// listening; exits when the test disconnects.
import { startPaidService, startPaymentWorld } from '../../support/paidService.js';

const world = await startPaymentWorld();
// The client limit at its defaults, per address behind one trusted proxy (the flood comes from
// several, each within its own bucket, as an attacker's would); the payer limit off: the paid
// probe's budget is not what is measured.
const service = await startPaidService({
  net: world.net,
  renderer: world.renderer,
  env: {
    TRUST_PROXY_HOPS: '1',
    RATE_LIMIT_PAYER_BURST: '0',
    ...(process.env.FLOOD_COMPUTE_THREADS ? { COMPUTE_THREADS: process.env.FLOOD_COMPUTE_THREADS } : {}),
  },
});
process.send!({ url: service.url, buyerKeys: world.net.buyers.slice(0, 2).map((buyer) => buyer.privateKey) });
process.on('disconnect', () => {
  void service
    .close()
    .then(() => world.close())
    .finally(() => process.exit(0));
});
