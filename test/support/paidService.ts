import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { paymentDependencies } from '../../src/http/paymentDependencies.js';
import type { RenderCapacity } from '../../src/http/paymentGate.js';
import type { Lifecycle } from '../../src/lifecycle.js';
import type { PdfRenderer } from '../../src/http/routes/invoiceRoutes.js';
import { createLogger } from '../../src/logger.js';
import { createFacilitatorClient } from '../../src/payment/facilitatorClient.js';
import { startLocalPaymentNetwork, type LocalPaymentNetwork } from '../../src/payment/local/localPaymentNetwork.js';
import { createMemoryPaymentStore } from '../../src/payment/memoryPaymentStore.js';
import type { OfferTerms } from '../../src/payment/offer.js';
import type { PaymentStore } from '../../src/payment/paymentStore.js';
import { createPaymentProcessor } from '../../src/payment/paymentProcessor.js';
import { startRenderer } from '../../src/render/startRenderer.js';
import type { Renderer } from '../../src/render/renderer.js';

export const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' as const;

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
  net: LocalPaymentNetwork;
  renderer: PdfRenderer;
  /** Defaults to the local facilitator; tests point it elsewhere to inject faults. */
  facilitatorUrl?: string;
  facilitatorTimeoutMs?: number;
  /** Defaults to a fresh in-memory store; several services given Redis stores act as instances. */
  store?: PaymentStore;
  /** The gate reserves render capacity here before verify (pass the real renderer). */
  capacity?: RenderCapacity;
  lifecycle?: Lifecycle;
  /** How long a duplicate waits for an in-flight payment (default 60 s). */
  duplicateWaitMs?: number;
}

/** The real app with the real payment processor, listening on 127.0.0.1. */
export async function startPaidService(options: PaidServiceOptions) {
  const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', PORT: '0', PUBLIC_BASE_URL: 'http://127.0.0.1' });
  const terms: OfferTerms = {
    network: 'eip155:8453',
    asset: USDC,
    payTo: options.net.payTo,
    eip712Name: 'USD Coin',
    eip712Version: '2',
    maxTimeoutSeconds: 300,
  };
  const events: string[] = [];
  const eventDetails: { event: string; payer?: string; nonce?: string; reason?: string }[] = [];
  const processor = createPaymentProcessor({
    terms,
    baseUrl: config.PUBLIC_BASE_URL,
    facilitator: createFacilitatorClient({ url: options.facilitatorUrl ?? options.net.facilitatorUrl, timeoutMs: options.facilitatorTimeoutMs ?? 10_000 }),
    store: options.store ?? createMemoryPaymentStore(),
    ...(options.duplicateWaitMs !== undefined ? { duplicateWaitMs: options.duplicateWaitMs } : {}),
    onEvent: (event, details) => {
      events.push(event);
      eventDetails.push({ event, ...details });
    },
  });
  let renders = 0;
  const counting: PdfRenderer = {
    renderPdf: (prepared, renderOptions) => {
      renders += 1;
      return options.renderer.renderPdf(prepared, renderOptions);
    },
  };
  const { app } = createApp({ config, logger: createLogger('silent'), renderer: counting, payment: paymentDependencies({ processor, terms }, options.lifecycle, options.capacity) });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    eventDetails,
    renders: () => renders,
    /** What shutdown does once settlements are done: every connection is cut at once. */
    cutConnections: () => server.closeAllConnections(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type { Renderer };
