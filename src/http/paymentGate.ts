import type { Context } from 'koa';
import { jsonSchemaOf } from '../invoice/fieldNotes.js';
import { compactBodySchema, compactExample } from './discovery/compactSchema.js';
import type { Lifecycle } from '../lifecycle.js';
import type { PricedResource } from '../payment/offer.js';
import type { PaymentProcessor, PaymentRequiredCheck, SettleFailed } from '../payment/paymentProcessor.js';
import { writeAnswer } from './answer.js';
import { fingerprintOf, paidCaller, type PaidOutcome } from './paidCall.js';
import type { PaymentGateFactory, PricedRoute } from './routeSpec.js';

/** How the bazaar and x402scan list the service (printable ASCII, ≤ 32 characters). */
export const SERVICE_NAME = 'Invoice PDF API';

/** Short topical tags for discovery search (≤ 5, each ≤ 32 ASCII characters). */
function tagsOf(route: PricedRoute): string[] {
  const format = route.response.contentType.split(';')[0]!.split('/')[1] ?? 'file';
  return ['invoice', route.path.includes('e-invoice') ? 'e-invoice' : 'billing', format.replace(/[^a-z0-9.+-]/g, ''), 'usdc'];
}

export function pricedResource(route: PricedRoute): PricedResource {
  return {
    method: route.method,
    path: route.path,
    priceUsd: route.priceUsd,
    description: route.summary,
    mimeType: route.response.contentType,
    serviceName: SERVICE_NAME,
    tags: tagsOf(route),
    ...(route.request ? bodyDescription(route.operationId, route.request.example, jsonSchemaOf(route.request.schema)) : {}),
  };
}

const bodyDescription = (operationId: string, example: unknown, schema: ReturnType<typeof jsonSchemaOf>) => ({
  exampleBody: compactExample(example, schema),
  bodySchema: compactBodySchema(schema, `/openapi.json#${operationId}`),
});

/**
 * Koa adapter of the paid call (paidCall.ts), after body validation. The answer is written only
 * here, after settlement, and Koa sends it only after this returns, so nothing reaches the client
 * before the payment settled, and a failure never carries the work's headers.
 */
export function paymentGate(processor: PaymentProcessor, lifecycle?: Lifecycle): PaymentGateFactory {
  const paidCall = paidCaller(processor, lifecycle);
  return (route) => {
    const resource = pricedResource(route);
    return async (ctx, work) => {
      try {
        const outcome = await paidCall(resource, ctx.get('PAYMENT-SIGNATURE') || undefined, fingerprintOf(ctx.method, ctx.path, ctx.request.body), work, {
          admitPayer: ctx.state.admitPayer,
          onVerified: (details) => (ctx.state.logFields = details),
          onResultNotStored: (error) => (ctx.state.logFields = { ...ctx.state.logFields, resultNotStored: String(error) }),
          whenDelivered: (done) => whenResponseDone(ctx, done),
        });
        write(ctx, outcome);
      } finally {
        // Draining: this answer ends its connection. A keep-alive client would otherwise go on
        // sending paid requests over it (the closed listener only stops new connections), keeping
        // the drain busy until the deadline cuts them off.
        if (lifecycle?.draining) ctx.set('Connection', 'close');
      }
    };
  };
}

function write(ctx: Context, outcome: PaidOutcome): void {
  switch (outcome.kind) {
    case 'payment-required':
      return challenge(ctx, outcome);
    case 'settle-failed':
      return settlementFailed(ctx, outcome);
    case 'unpaid':
      return writeAnswer(ctx, outcome.answer);
    case 'paid':
      writeAnswer(ctx, outcome.answer);
      return receipt(ctx, outcome.receipt);
    case 'replayed':
    case 'collected':
      writeAnswer(ctx, outcome.result);
      return receipt(ctx, outcome.result.receipt);
  }
}

function receipt(ctx: Context, header: string): void {
  ctx.set('PAYMENT-RESPONSE', header);
  ctx.set('Cache-Control', 'private');
}

function challenge(ctx: Context, check: PaymentRequiredCheck): void {
  ctx.status = 402;
  ctx.set('PAYMENT-REQUIRED', check.header);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error: { code: 'payment_required', message: check.message, reason: check.paymentRequired.error ?? 'payment_required' } };
}

function settlementFailed(ctx: Context, failed: SettleFailed): void {
  ctx.status = 402;
  ctx.set('PAYMENT-RESPONSE', failed.header);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error: { code: 'settlement_failed', message: `The payment could not be settled: ${failed.receipt.errorReason ?? 'unknown reason'}. No PDF was delivered.` } };
}

/** Calls `done` once the response has been written out, or its connection is gone. */
function whenResponseDone(ctx: Context, done: () => void): void {
  const { res, req } = ctx;
  if (res.writableFinished || res.destroyed || req.socket.destroyed) return done();
  res.once('close', done);
}
