import { createHash } from 'node:crypto';
import type { Context, Middleware, Next } from 'koa';
import { AppError } from '../errors.js';
import { jsonSchemaOf } from '../invoice/fieldNotes.js';
import { compactBodySchema } from './discovery/compactSchema.js';
import type { PricedResource } from '../payment/offer.js';
import type { Lifecycle } from '../lifecycle.js';
import type { SettleResponse } from '../payment/facilitatorClient.js';
import type { PaymentCheck, PaymentProcessor } from '../payment/paymentProcessor.js';
import type { PaymentGateFactory, PricedRoute } from './routeSpec.js';

export function pricedResource(route: PricedRoute): PricedResource {
  return {
    method: route.method,
    path: route.path,
    priceUsd: route.priceUsd,
    description: route.summary,
    mimeType: route.response.contentType,
    ...(route.request
      ? { exampleBody: route.request.example, bodySchema: compactBodySchema(jsonSchemaOf(route.request.schema), `GET /openapi.json, operation ${route.operationId}`) }
      : {}),
  };
}

/** Which body a payment paid for; the validated input is canonical JSON of what was sent. */
const fingerprintOf = (ctx: Context) => createHash('sha256').update(`${ctx.method} ${ctx.path}\n${JSON.stringify(ctx.request.body ?? null)}`).digest('hex');

/** Render capacity the gate reserves before verify (the renderer implements it). */
export interface RenderCapacity {
  /** A slot for one render, or undefined when every page and queue place is taken. */
  tryReserve(): { release(): void } | undefined;
}

const rendererBusy = () =>
  new AppError(503, 'renderer_busy', 'All PDF renderers are busy and the queue is full. Please retry shortly; nothing was charged.', {
    headers: { 'Retry-After': '1' },
  });

/**
 * Koa adapter of the payment processor. Runs after body validation and before the handler:
 * challenge → reserve render capacity → verify → handler (the work) → settle → answer. Nothing
 * reaches the client before settlement because Koa writes the response only after this middleware
 * returns. The capacity reservation comes before verify so that a saturated service turns paid
 * requests away with 503 without asking the facilitator anything; the handler renders in the
 * reserved slot (ctx.state.renderReservation).
 */
export function paymentGate(processor: PaymentProcessor, lifecycle?: Lifecycle, capacity?: RenderCapacity): PaymentGateFactory {
  return (route) => {
    const resource = pricedResource(route);
    const gate: Middleware = async (ctx, next) => {
      let reservation: { release(): void } | undefined;
      const beforeVerify = capacity
        ? () => {
            reservation = capacity.tryReserve();
            if (!reservation) throw rendererBusy();
            ctx.state.renderReservation = reservation;
          }
        : undefined;
      try {
        await pay(ctx, next, await processor.check(resource, ctx.get('PAYMENT-SIGNATURE') || undefined, fingerprintOf(ctx), beforeVerify ? { beforeVerify } : {}));
      } finally {
        reservation?.release();
        // Draining: this answer ends its connection. A keep-alive client would otherwise go on
        // sending paid requests over it (the closed listener only stops new connections), keeping
        // the drain busy until the deadline cuts them off.
        if (lifecycle?.draining) ctx.set('Connection', 'close');
      }
    };
    return gate;
  };

  async function pay(ctx: Context, next: Next, check: PaymentCheck): Promise<void> {
    if (check.kind === 'payment-required') {
      ctx.status = 402;
      ctx.set('PAYMENT-REQUIRED', check.header);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { error: { code: 'payment_required', message: check.paymentRequired.error ?? 'Payment required' } };
      return;
    }

    if (check.kind === 'replayed' || check.kind === 'collected') {
      ctx.status = 200;
      ctx.type = check.result.contentType;
      ctx.set('PAYMENT-RESPONSE', check.result.receipt);
      ctx.set('Cache-Control', 'private');
      ctx.body = check.result.body;
      return;
    }

    if (check.kind === 'settle-failed') return settlementFailed(ctx, check);

    const { payment } = check;
    ctx.state.logFields = { payer: payment.payer, nonce: payment.nonce };
    try {
      await next();
    } catch (error) {
      await payment.abandon();
      throw error;
    }
    if (ctx.status !== 200 || !Buffer.isBuffer(ctx.body)) {
      await payment.abandon();
      if (ctx.status === 200) throw new AppError(500, 'internal_error', 'The paid work produced no result. Nothing was charged.');
      return;
    }
    const work = { contentType: String(ctx.type), body: ctx.body };

    if (lifecycle && !lifecycle.settlementAllowed()) {
      // Shutting down past the deadline: stop before settlement, never in the middle of it.
      await payment.abandon();
      throw new AppError(503, 'shutting_down', 'The service is shutting down; nothing was charged. Retry with the same payment.', { headers: { 'Retry-After': '1' } });
    }
    // A settlement lasts until its answer has left: shutdown waits for it before cutting connections,
    // or a PDF that was just paid for would be lost with the process (the store is in memory).
    const endSettlement = lifecycle?.beginSettlement();
    if (endSettlement) whenResponseDone(ctx, endSettlement);
    const outcome = await payment.settle(work);
    if (outcome.kind === 'settle-failed') return settlementFailed(ctx, outcome);
    ctx.set('PAYMENT-RESPONSE', outcome.header);
    ctx.set('Cache-Control', 'private');
    try {
      await payment.complete(work, outcome);
    } catch (error) {
      // Paid and rendered: deliver the PDF even if it can't be kept for re-sends.
      ctx.state.logFields = { ...ctx.state.logFields, resultNotStored: String(error) };
    }
  }
}

/** Calls `done` once the response has been written out, or its connection is gone. */
function whenResponseDone(ctx: Context, done: () => void): void {
  const { res, req } = ctx;
  if (res.writableFinished || res.destroyed || req.socket.destroyed) return done();
  res.once('close', done);
}

function settlementFailed(ctx: Context, failed: { header: string; receipt: SettleResponse }): void {
  ctx.status = 402;
  ctx.remove('Content-Disposition');
  ctx.remove('X-Page-Count');
  ctx.set('PAYMENT-RESPONSE', failed.header);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error: { code: 'settlement_failed', message: `The payment could not be settled: ${failed.receipt.errorReason ?? 'unknown reason'}. No PDF was delivered.` } };
}
