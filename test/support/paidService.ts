import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config.js';
import { createLifecycle, type Lifecycle } from '../../src/lifecycle.js';
import { createLogger } from '../../src/logger.js';
import { startLocalPaymentNetwork, type LocalPaymentNetwork } from '../../src/payment/local/localPaymentNetwork.js';
import type { BucketStore } from '../../src/http/rateLimit/bucketStore.js';
import type { PaymentStore } from '../../src/payment/paymentStore.js';
import { startPayments } from '../../src/payment/startPayments.js';
import { USDC_ON_BASE } from '../../src/payment/usdc.js';
import type { Renderer } from '../../src/render/renderer.js';
import { createService } from '../../src/service.js';
import { paymentSettings, startRenderer } from '../../src/settings.js';
import { createHttpServer } from '../../src/http/httpServer.js';
import { sharedComputePool } from './sharedCompute.js';

export const USDC = USDC_ON_BASE as `0x${string}`;

/** A real chain + facilitator on loopback and a real Chromium renderer, shared by a test file. */
export async function startPaymentWorld() {
  const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', RENDER_POOL_SIZE: '2' });
  const net = await startLocalPaymentNetwork({});
  const renderer = await startRenderer(config, createLogger('silent'));
  return {
    net,
    renderer,
    async close() {
      await renderer.close();
      await net.close();
    },
  };
}

export interface PaidServiceOptions {
  /** The facilitator and the payee: a local network's, in this process or another. */
  net: Pick<LocalPaymentNetwork, 'facilitatorUrl' | 'payTo'>;
  renderer: Renderer;
  /** A named fake of renderPdf in place of the renderer's own (its admission and pages are still the renderer's). */
  renderPdf?: Renderer['renderPdf'];
  /** Defaults to the local facilitator; tests point it elsewhere to inject faults. */
  facilitatorUrl?: string;
  facilitatorTimeoutMs?: number;
  /** Defaults to a fresh in-memory store; several services given Redis stores act as instances. */
  store?: PaymentStore;
  lifecycle?: Lifecycle;
  /** How long a duplicate waits for an in-flight payment (default 60 s). */
  duplicateWaitMs?: number;
  /**
   * false turns the rate limits off (burst 0): the reliability suite sends thousands of requests
   * from one address to measure payments, not the limiter (which has its own tests).
   */
  rateLimits?: boolean;
  /** More configuration (e.g. RATE_LIMIT_PAYER_BURST), through the real config loader. */
  env?: Record<string, string>;
  /** Where the rate-limit buckets live (e.g. a memory store on a stopped clock); default: in memory. */
  buckets?: BucketStore;
  /**
   * PUBLIC_BASE_URL is the address the service really listens on (http://127.0.0.1:<port>), as a
   * client that checks the origin of what it signs (sign-in-with-x) needs; default http://127.0.0.1.
   */
  ownOrigin?: boolean;
}

/**
 * The service exactly as main.ts wires it (createService: payments from startPayments, the
 * renderer's admission in front of verify, readiness), against the local network's chain,
 * listening on 127.0.0.1.
 */
export async function startPaidService(options: PaidServiceOptions) {
  // Listening first, so that the configuration may name the port; requests wait for the app.
  const late: { handle?: (req: IncomingMessage, res: ServerResponse) => void } = {};
  const server = createHttpServer((req, res) => late.handle?.(req, res)).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    PORT: '0',
    PUBLIC_BASE_URL: options.ownOrigin ? `http://127.0.0.1:${port}` : 'http://127.0.0.1',
    FACILITATOR_URL: options.facilitatorUrl ?? options.net.facilitatorUrl,
    FACILITATOR_TIMEOUT_MS: String(options.facilitatorTimeoutMs ?? 10_000),
    PAY_TO: options.net.payTo,
    // The local chain's dev account 0 receives: allowed only on a local test chain.
    LOCAL_TEST_CHAIN: 'on',
    ...(options.rateLimits === false ? { RATE_LIMIT_CLIENT_BURST: '0', RATE_LIMIT_PAYER_BURST: '0' } : {}),
    ...options.env,
  });
  const events: string[] = [];
  const eventDetails: { event: string; payer?: string; nonce?: string; reason?: string }[] = [];
  const payments = await startPayments(paymentSettings(config), {
    log: () => undefined,
    ...(options.store ? { store: options.store } : {}),
    ...(options.duplicateWaitMs !== undefined ? { duplicateWaitMs: options.duplicateWaitMs } : {}),
    onEvent: (event, details) => {
      events.push(event);
      eventDetails.push({ event, ...details });
    },
  });
  let renders = 0;
  const renderPdf = options.renderPdf ?? options.renderer.renderPdf;
  const renderer: Renderer = {
    ...options.renderer,
    renderPdf: (prepared, renderOptions) => {
      renders += 1;
      return renderPdf(prepared, renderOptions);
    },
  };
  const lifecycle = options.lifecycle ?? createLifecycle();
  const compute = sharedComputePool(config.COMPUTE_THREADS);
  const service = createService({
    config,
    logger: createLogger('silent'),
    lifecycle,
    payments,
    renderer,
    ...(options.buckets ? { buckets: options.buckets } : {}),
    ...(compute && { compute }),
  });
  // Ready before the first request, as main.ts is (ComputePool.warm).
  await service.warm();
  // The production server (its header size and time limits), not app.listen's defaults.
  late.handle = service.app.callback();
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    eventDetails,
    payments,
    renders: () => renders,
    /** What shutdown does once settlements are done: every connection is cut at once. */
    cutConnections: () => server.closeAllConnections(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }).then(() => {
        service.close(); // its Redis rate-limit connection, with REDIS_URL
        return payments.close();
      }),
  };
}

export type { Renderer };
