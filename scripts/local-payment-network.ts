// Runs the local payment network on its own (a local test chain with test USDC and an x402
// facilitator), for several service instances to share: `npm run topology` and the compose
// `local` profile use it. Stops on SIGINT/SIGTERM.
//   LOCAL_CHAIN_PORT (8545), LOCAL_FACILITATOR_PORT (8546), LOCAL_FACILITATOR_HOST (127.0.0.1)
import { startLocalPaymentNetwork } from '../src/payment/local/localPaymentNetwork.js';

const network = await startLocalPaymentNetwork({
  chainPort: Number(process.env.LOCAL_CHAIN_PORT ?? 8545),
  facilitatorPort: Number(process.env.LOCAL_FACILITATOR_PORT ?? 8546),
  facilitatorHost: process.env.LOCAL_FACILITATOR_HOST ?? '127.0.0.1',
  log: (line) => process.stdout.write(`${line}\n`),
});
process.stdout.write(
  `${JSON.stringify({ msg: 'local payment network ready (TEST USDC, not real money)', facilitatorUrl: network.facilitatorUrl, rpcUrl: network.rpcUrl, payTo: network.payTo, buyers: network.buyers.map((buyer) => buyer.address) })}\n`,
);
const stop = async () => {
  await network.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
