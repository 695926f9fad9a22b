import { Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config.js';
import { createLifecycle } from '../src/lifecycle.js';
import type { InvoiceInput } from '../src/invoice/schema.js';
import { createLogger } from '../src/logger.js';
import type { LocalPaymentNetwork } from '../src/payment/local/localPaymentNetwork.js';
import { startPayments } from '../src/payment/startPayments.js';
import { createRenderer, type Renderer } from '../src/render/renderer.js';
import { createService } from '../src/service.js';
import { paymentSettings } from '../src/settings.js';
import { startFaultyFacilitator } from '../test/support/faultyFacilitator.js';
import { challengeOf, signerFor } from '../test/support/x402Buyer.js';
import { post } from './httpPost.js';
import { percentile } from './measure.js';
import { scaled } from './scale.js';
import { BENCH_LIMITS } from './targets.js';

/**
 * The paid request end to end, on the local chain: the service as main.ts wires it (createService:
 * payments through the facilitator client, the renderer's admission in front of verify), a real
 * x402 buyer signing a fresh authorization per request (signed before the clock starts), the local
 * facilitator verifying and settling on anvil. Each request's render, verify and settle are timed
 * where they happen (the renderer, the facilitator client), so the paid p50 is compared with its
 * own parts in the same run: verify and render run side by side, so the target is
 * paid ≤ max(verify, render) + settle + 5 ms; their sum is what running them in series costs.
 *
 * `verifyDelayMs` puts a delaying proxy in front of the facilitator's verify: a production
 * facilitator answers verify in 100–300 ms, the local one in a few.
 *
 * The local network (`net`: anvil and its facilitator) is the caller's, so that the variants of one
 * run share it (each with a buyer of its own, `buyer`, and its own renderer and service): starting
 * a network is anvil, TestUSDC's deployment and grants and the facilitator, about 1.5 s of CPU, as
 * much as the paid requests themselves at the bench tier's tiny scale.
 */
export interface PaidResult {
  name: string;
  lines: number;
  samples: number;
  paid: number;
  render: number;
  verify: number;
  settle: number;
  /** Median over the requests of paid − (max(verify, render) + settle), each term of the same request. */
  overhead: number;
}

export async function paidLatency(
  net: LocalPaymentNetwork,
  bodies: [lines: number, body: InvoiceInput][],
  samples: number,
  options: { verifyDelayMs?: number; buyer: number },
): Promise<PaidResult[]> {
  const proxy = options.verifyDelayMs ? await startFaultyFacilitator(net.facilitatorUrl) : undefined;
  if (proxy) proxy.fault({ delayMs: options.verifyDelayMs! }, 'verify');
  const renderer = await createRenderer({ poolSize: 2 });
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    NODE_ENV: 'production',
    PORT: '0',
    PUBLIC_BASE_URL: 'http://127.0.0.1',
    FACILITATOR_URL: proxy?.url ?? net.facilitatorUrl,
    PAY_TO: net.payTo,
    // The local chain's dev account 0 receives: allowed only on a local test chain.
    LOCAL_TEST_CHAIN: 'on',
    ...BENCH_LIMITS,
  });
  const timings = { render: [] as number[], verify: [] as number[], settle: [] as number[] };
  const payments = await startPayments(paymentSettings(config), {
    log: () => undefined,
    observe: (operation, ms, outcome) => {
      if (outcome === 'ok') timings[operation].push(ms);
    },
  });
  const timed: Renderer = {
    ...renderer,
    renderPdf(prepared, call) {
      const started = performance.now();
      const rendering = renderer.renderPdf(prepared, call);
      rendering.then(
        () => timings.render.push(performance.now() - started),
        () => undefined,
      );
      return rendering;
    },
  };
  const { app } = createService({
    config,
    logger: createLogger('silent'),
    lifecycle: createLifecycle(),
    payments,
    renderer: timed,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  try {
    const sign = signerFor(net.buyers[options.buyer]!, await challengeOf(url));
    const results: PaidResult[] = [];
    // 3 at scale 1; 1 at the bench tier's tiny scale (each is a payment settled on anvil).
    const warmup = scaled(3);
    for (const [lines, body] of bodies) {
      for (const list of Object.values(timings)) list.length = 0;
      const paid: number[] = [];
      for (let index = 0; index < warmup + samples; index++) {
        const { header } = await sign();
        const started = performance.now();
        await postPaid(agent, `${url}/v1/invoice.pdf`, body, header);
        if (index >= warmup) paid.push(performance.now() - started);
      }
      const measured = (values: number[]) => percentile(values.slice(warmup), 50);
      // One render, verify and settle per request, in request order (the 402 challenge has none).
      const overheads = paid.map((ms, index) => {
        const at = warmup + index;
        return ms - (Math.max(timings.verify[at]!, timings.render[at]!) + timings.settle[at]!);
      });
      results.push({
        name: options.verifyDelayMs ? `paid, verify +${options.verifyDelayMs} ms` : 'paid',
        lines,
        samples,
        paid: percentile(paid, 50),
        render: measured(timings.render),
        verify: measured(timings.verify),
        settle: measured(timings.settle),
        overhead: percentile(overheads, 50),
      });
    }
    return results;
  } finally {
    agent.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await payments.close();
    await renderer.close();
    await proxy?.close();
  }
}

async function postPaid(agent: Agent, url: string, body: unknown, signature: string): Promise<void> {
  const { status } = await post(agent, new URL(url), Buffer.from(JSON.stringify(body)), {
    'PAYMENT-SIGNATURE': signature,
  });
  if (status !== 200) throw new Error(`paid request answered ${status}`);
}
