// What the paid-route reliability properties share (payments.test.ts): the local chain and its
// facilitator, a facilitator proxy that injects faults, and the paid service behind that proxy.
import type { PaymentRequired } from '@x402/core/types';
import { after, before } from 'node:test';
import { EXAMPLE_INVOICE } from '../../../src/invoice/example.js';
import { startFaultyFacilitator, type FaultyFacilitator } from '../../support/faultyFacilitator.js';
import { startPaidService, startPaymentWorld } from '../../support/paidService.js';
import { chainAudit, challengeOf } from '../harness.js';

export interface PaidWorld {
  world: Awaited<ReturnType<typeof startPaymentWorld>>;
  proxy: FaultyFacilitator;
  /** The service as deployed: render capacity reserved before verify, the facilitator behind the proxy. */
  service: Awaited<ReturnType<typeof startPaidService>>;
  required: PaymentRequired;
  audit: ReturnType<typeof chainAudit>;
}

/** Short enough for hung facilitator calls to end quickly, long enough for a loaded settle. */
const FACILITATOR_TIMEOUT_MS = 2_500;

/** Starts the world before the file's tests and stops it after them; its fields are set once they run. */
export function usePaidWorld(): PaidWorld {
  const paid = {} as PaidWorld;
  before(
    async () => {
      paid.world = await startPaymentWorld();
      paid.proxy = await startFaultyFacilitator(paid.world.net.facilitatorUrl);
      paid.service = await startPaidService({
        rateLimits: false,
        net: paid.world.net,
        renderer: paid.world.renderer,
        facilitatorUrl: paid.proxy.url,
        facilitatorTimeoutMs: FACILITATOR_TIMEOUT_MS,
      });
      paid.required = await challengeOf(paid.service.url);
      paid.audit = chainAudit(paid.world.net);
    },
    { timeout: 60_000 },
  );
  after(
    async () => {
      await paid.service?.close();
      await paid.proxy?.close();
      await paid.world?.close();
    },
    { timeout: 30_000 },
  );
  return paid;
}

export const invoice = (id: string) => ({ ...EXAMPLE_INVOICE, invoice_number: id });

export const pay = (url: string, header: string, body: unknown = EXAMPLE_INVOICE) =>
  fetch(`${url}/v1/invoice.pdf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'PAYMENT-SIGNATURE': header },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
