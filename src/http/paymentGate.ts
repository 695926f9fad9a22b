import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { AppError } from '../errors.js';
import { jsonSchemaOf } from '../invoice/fieldNotes.js';
import type { PricedResource } from '../payment/offer.js';
import type { Lifecycle } from '../lifecycle.js';
import type { PaymentProcessor } from '../payment/paymentProcessor.js';
import type { PaymentGateFactory, PricedRoute } from './routeSpec.js';

export function pricedResource(route: PricedRoute): PricedResource {
  return {
    method: route.method,
    path: route.path,
    priceUsd: route.priceUsd,
    description: route.summary,
    mimeType: route.response.contentType,
    ...(route.request ? { exampleBody: route.request.example, bodySchema: jsonSchemaOf(route.request.schema) } : {}),
  };
}

/** Which body a payment paid for; the validated input is canonical JSON of what was sent. */
const fingerprintOf = (ctx: Context) => createHash('sha256').update(`${ctx.method} ${ctx.path}\n${JSON.stringify(ctx.request.body ?? null)}`).digest('hex');

/**
 * Koa adapter of the payment processor. Runs after body validation and before the handler:
 * challenge → verify → handler (the work) → settle → answer. Nothing reaches the client before
 * settlement because Koa writes the response only after this middleware returns.
 */
export function paymentGate(processor: PaymentProcessor, lifecycle?: Lifecycle): PaymentGateFactory {
  return (route) => {
    const resource = pricedResource(route);
    const gate: Middleware = async (ctx, next) => {
      const check = await processor.check(resource, ctx.get('PAYMENT-SIGNATURE') || undefined, fingerprintOf(ctx));

      if (check.kind === 'payment-required') {
        ctx.status = 402;
        ctx.set('PAYMENT-REQUIRED', check.header);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { error: { code: 'payment_required', message: check.paymentRequired.error ?? 'Payment required' } };
        return;
      }

      if (check.kind === 'replayed') {
        ctx.status = 200;
        ctx.type = check.result.contentType;
        ctx.set('PAYMENT-RESPONSE', check.result.receipt);
        ctx.set('Cache-Control', 'private');
        ctx.body = check.result.body;
        return;
      }

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

      if (lifecycle && !lifecycle.settlementAllowed()) {
        // Shutting down past the deadline: stop before settlement, never in the middle of it.
        await payment.abandon();
        throw new AppError(503, 'shutting_down', 'The service is shutting down; nothing was charged. Retry with the same payment.', { headers: { 'Retry-After': '1' } });
      }
      const endSettlement = lifecycle?.beginSettlement();
      let outcome;
      try {
        outcome = await payment.settle();
      } finally {
        endSettlement?.();
      }
      if (outcome.kind === 'settle-failed') {
        ctx.status = 402;
        ctx.remove('Content-Disposition');
        ctx.set('PAYMENT-RESPONSE', outcome.header);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { error: { code: 'settlement_failed', message: `The payment could not be settled: ${outcome.receipt.errorReason ?? 'unknown reason'}. No PDF was delivered.` } };
        return;
      }
      ctx.set('PAYMENT-RESPONSE', outcome.header);
      ctx.set('Cache-Control', 'private');
      try {
        await payment.complete({ contentType: String(ctx.type), body: ctx.body }, outcome);
      } catch (error) {
        // Paid and rendered: deliver the PDF even if it can't be kept for re-sends.
        ctx.state.logFields = { ...ctx.state.logFields, resultNotStored: String(error) };
      }
    };
    return gate;
  };
}
