import { createApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { paymentDependencies } from './http/paymentDependencies.js';
import { createLogger } from './logger.js';
import { paymentSettings } from './payment/paymentSettings.js';
import { startPayments } from './payment/startPayments.js';
import { startRenderer } from './render/startRenderer.js';

/** Process entry: read the environment once, start payments and the renderer, listen, shut down cleanly. */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL);

  const payments = await startPayments(paymentSettings(config), {
    log: (line) => logger.info(line),
    onEvent: (event, details) => logger.info({ payment: event, ...details }, `payment ${event}`),
  });
  const renderer = await startRenderer(config, logger);
  const { app } = createApp({ config, logger, renderer, payment: paymentDependencies(payments) });

  const server = app.listen(config.PORT, config.HOST, () => {
    logger.info({ url: `http://${config.HOST}:${config.PORT}`, publicBaseUrl: config.PUBLIC_BASE_URL, env: config.NODE_ENV }, 'listening');
    if (payments.local) {
      const [first] = payments.local.buyers;
      logger.info(
        {
          mode: 'local-payment',
          rpcUrl: payments.local.rpcUrl,
          facilitatorUrl: payments.local.facilitatorUrl,
          payTo: payments.terms.payTo,
          testUsdcHolders: payments.local.buyers.map((buyer) => buyer.address),
        },
        'LOCAL PAYMENT MODE: a local test chain (chain id 8453) and facilitator run on loopback; payments use TEST USDC, not real money. ' +
          `Dev accounts 1-9 (anvil's public test mnemonic) hold 1000 test USDC each; account 0 (${payments.terms.payTo}) receives. ` +
          `Pay with: npm run buy -- invoice.json out.pdf   (uses dev account 1, ${first?.address}). Set FACILITATOR_URL and PAY_TO for production.`,
      );
    }
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), 30_000).unref();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await renderer.close();
    await payments.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

await main();
