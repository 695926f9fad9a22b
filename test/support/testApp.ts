import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp, type AppDependencies } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createHttpServer } from '../../src/http/httpServer.js';
import type { PaidCall } from '../../src/operations/paidCall.js';
import { createRenderer } from '../../src/render/renderer.js';
import { sharedComputePool } from './sharedCompute.js';

export interface TestApp {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Starts the real app on 127.0.0.1 with a free port; env overrides go through the real config loader. */
export async function startTestApp(
  env: Record<string, string> = {},
  deps: Partial<AppDependencies> = {},
): Promise<TestApp> {
  const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', PUBLIC_BASE_URL: 'https://invoices.example', ...env });
  const compute = sharedComputePool(config.COMPUTE_THREADS);
  const service = createApp({ config, logger: createLogger(config.LOG_LEVEL), ...(compute && { compute }), ...deps });
  // Ready before the first request, as main.ts is: a worker's start-up (0.6 s of CPU bundled, 2-3 s
  // when it was loaded through tsx), several test files at once on 2 cores stretched past a
  // request's 10 s timeout.
  await service.warm();
  const { app } = service;
  // The production server (its header size and time limits), not app.listen's defaults.
  const server = createHttpServer(app.callback()).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * startTestApp with a real renderer of one page and the render.pdf route priced 0 (no payment round
 * trip), as the tests that print received e-invoices need it; close() stops both.
 */
export async function startRenderingApp(env: Record<string, string> = {}): Promise<TestApp> {
  const renderer = await createRenderer({ poolSize: 1 });
  try {
    const app = await startTestApp({ PRICES: 'v1_e_invoice_render_pdf=0', COMPUTE_THREADS: '1', ...env }, { renderer });
    return {
      ...app,
      async close() {
        await app.close();
        await renderer.close();
      },
    };
  } catch (error) {
    await renderer.close();
    throw error;
  }
}

/** A test app whose paid routes reach a spy instead of the paid call; `paidCalls` counts what reached it. */
export interface PaymentSpyApp extends TestApp {
  readonly paidCalls: number;
}

/**
 * startTestApp with a spy in place of the paid call (named as one: it checks nothing): it counts
 * the calls that reached payment and answers 402. For tests that a request is refused before
 * payment (the count stays) or goes on to it (the count grows).
 */
export async function startPaymentSpyApp(
  env: Record<string, string> = {},
  deps: Partial<AppDependencies> = {},
): Promise<PaymentSpyApp> {
  let calls = 0;
  const spy: PaidCall = async () => {
    calls++;
    return {
      kind: 'answered',
      answer: {
        status: 402,
        body: { error: { code: 'spy_reached_payment', message: 'The spy in place of the paid call was reached.' } },
      },
    };
  };
  const app = await startTestApp(env, {
    ...deps,
    payment: {
      terms: { scheme: 'exact', network: 'eip155:8453', asset: '0x0', payTo: '0x0' },
      call: spy,
      offers: () => [],
    },
  });
  return {
    ...app,
    get paidCalls() {
      return calls;
    },
  };
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return response;
}
