import type { AddressInfo } from 'node:net';
import { createApp, type AppDependencies } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { paymentDependencies } from '../../src/http/paymentDependencies.js';
import { createLogger } from '../../src/logger.js';
import { startPayments } from '../../src/payment/startPayments.js';
import { paymentSettings } from '../../src/settings.js';

/**
 * The app with its real payment gate and processor, for what an unpaid client sees: challenges and
 * discovery documents. Its facilitator address is a closed loopback port: an unpaid request never
 * reaches a facilitator, and a test that pays uses paidService.ts instead.
 */
export async function startChallengeApp(
  env: Record<string, string> = {},
  deps: Pick<Partial<AppDependencies>, 'buckets'> = {},
) {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    PORT: '0',
    PUBLIC_BASE_URL: 'https://invoices.example',
    FACILITATOR_URL: 'http://127.0.0.1:9',
    PAY_TO: '0x1111111111111111111111111111111111111111',
    ...env,
  });
  const payments = await startPayments(paymentSettings(config), { log: () => undefined });
  const { app } = createApp({
    config,
    logger: createLogger('silent'),
    payment: paymentDependencies(payments),
    ...deps,
  });
  // PORT: a test that needs the documents to name the origin it listens on picks the port.
  const server = app.listen(config.PORT, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await payments.close();
    },
  };
}
