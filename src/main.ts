import type { Server } from 'node:http';
import type { AppService } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { challengeBudgetProblems } from './http/challengeBudget.js';
import { extendedChallenges } from './operations/paymentExtensions.js';
import { createHttpServer } from './http/httpServer.js';
import { createLifecycle, type Lifecycle } from './lifecycle.js';
import { createLogger, type Logger } from './logger.js';
import { createMetrics } from './metrics.js';
import { startPayments, type Payments } from './payment/startPayments.js';
import type { Renderer } from './render/renderer.js';
import { createService } from './service.js';
import { paymentSettings, startRenderer } from './settings.js';

/** Process entry: read the environment once, start payments and the renderer, listen, drain on a signal. */
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
  const logger = createLogger(config.LOG_LEVEL, {
    pretty: config.NODE_ENV === 'development' && process.stdout.isTTY === true,
  });
  const lifecycle = createLifecycle();
  const metrics = createMetrics();

  const payments = await startPayments(paymentSettings(config), {
    log: (line) => logger.info(line),
    onEvent: (event, details) => {
      metrics.observePayment(event);
      logger.info({ payment: event, ...details }, `payment ${event}`);
    },
    observe: (operation, ms, outcome) => metrics.observeFacilitator(operation, ms / 1000, outcome),
  });
  const renderer = await startRenderer(config, logger);
  const service = createService({ config, logger, lifecycle, metrics, payments, renderer });
  // A configuration whose 402 can't pass a default proxy must not start (challengeBudget.ts).
  const tooLarge = await challengeBudgetProblems(service.routes, extendedChallenges(payments), {
    publicBaseUrl: config.PUBLIC_BASE_URL,
  });
  if (tooLarge.length > 0) {
    process.stderr.write(`${new ConfigError(tooLarge).message}\n`);
    await renderer.close();
    await payments.close();
    process.exit(2);
  }

  // The first request must not wait for the compute workers' start-up.
  await service.warm();
  // Bounded header size, header, request and keep-alive times, enforced within 1 s (httpServer.ts).
  const server = createHttpServer(service.app.callback());
  server.listen(config.PORT, config.HOST, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    logger.info(
      { url: `http://${config.HOST}:${port}`, publicBaseUrl: config.PUBLIC_BASE_URL, env: config.NODE_ENV },
      'listening',
    );
    if (payments.local) announceLocalPaymentMode(logger, payments);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    void shutdown({
      signal,
      server,
      lifecycle,
      renderer,
      payments,
      logger,
      deadlineMs: config.SHUTDOWN_DEADLINE_MS,
      service,
    });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  // Notice of a stop to come (the pre-stop hook of deploy/base/deployment.yaml): /readyz answers
  // 503 from now on while every request is still served, so that whatever routes by readiness
  // stops sending here before SIGTERM closes the listener.
  process.on('SIGUSR2', () => {
    if (lifecycle.draining) return;
    lifecycle.drain();
    logger.info({ signal: 'SIGUSR2' }, 'stop announced: /readyz answers 503, requests are still served until SIGTERM');
  });
}

function announceLocalPaymentMode(logger: Logger, payments: Payments): void {
  const local = payments.local!;
  logger.info(
    {
      mode: 'local-payment',
      rpcUrl: local.rpcUrl,
      facilitatorUrl: local.facilitatorUrl,
      payTo: payments.terms.payTo,
      testUsdcHolders: local.buyers.map((buyer) => buyer.address),
    },
    'LOCAL PAYMENT MODE: a local test chain (chain id 8453) and facilitator run on loopback; payments use TEST USDC, not real money. ' +
      `Dev accounts 1-9 of anvil's public test mnemonic hold 1000 test USDC each; dev account 0 (${payments.terms.payTo}) receives. ` +
      `Pay with: npm run buy -- invoice.json out.pdf  (uses dev account 1, ${local.buyers[0]?.address}). Set FACILITATOR_URL and PAY_TO for production.`,
  );
}

/**
 * Drain: readiness 503 at once, no new connections, and every request already received gets its
 * real answer: a body still arriving, queued for or parsed on the compute pool, a render, a
 * settlement. So the compute workers and Redis clients close only after the server has (closing
 * them first answered 12 parses in flight with 11 × 503 and a 500; test/integration/shutdown.test.ts).
 * At the deadline, requests that have not begun settling are abandoned before settlement;
 * settlements under way are waited for. Then the browser and the local chain close.
 */
async function shutdown(options: {
  signal: string;
  server: Server;
  lifecycle: Lifecycle;
  renderer: Renderer;
  payments: Payments;
  logger: Logger;
  deadlineMs: number;
  service: Pick<AppService, 'endStreams' | 'close'>;
}) {
  const { signal, server, lifecycle, renderer, payments, logger, deadlineMs } = options;
  lifecycle.drain();
  logger.info({ signal, deadlineMs }, 'draining');
  // Open preview event streams never end by themselves; they would hold the server open.
  options.service.endStreams();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const deadline = new Promise<'deadline'>((resolve) => setTimeout(() => resolve('deadline'), deadlineMs).unref());
  if ((await Promise.race([closed, deadline])) === 'deadline') {
    lifecycle.passDeadline();
    logger.warn('shutdown deadline passed: abandoning requests that have not started settling');
    await lifecycle.settlementsDone(15_000);
    server.closeAllConnections();
  }
  await lifecycle.settlementsDone(15_000);
  await options.service.close();
  await renderer.close();
  await payments.close();
  logger.info('stopped');
  process.exit(0);
}

await main();
