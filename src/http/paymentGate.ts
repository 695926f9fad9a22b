import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import { AppError } from '../errors.js';
import { jsonSchemaOf } from '../invoice/fieldNotes.js';
import { compactBodySchema, compactExample } from './discovery/compactSchema.js';
import type { Lifecycle } from '../lifecycle.js';
import type { PricedResource } from '../payment/offer.js';
import type { ClaimedPayment, PaymentCheck, PaymentProcessor, PaymentRequiredCheck, SettleFailed } from '../payment/paymentProcessor.js';
import { paidAnswerOf, writeAnswer, type Answer, type PaidAnswer } from './answer.js';
import type { PaidWork, PaymentGateFactory, PricedRoute } from './routeSpec.js';

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
    ...(route.request
      ? {
          exampleBody: compactExample(route.request.example, jsonSchemaOf(route.request.schema)),
          bodySchema: compactBodySchema(jsonSchemaOf(route.request.schema), `GET /openapi.json, operation ${route.operationId}`),
        }
      : {}),
  };
}

/** Which body a payment paid for: the JSON text of the parsed body, as sent, with method and path. */
const fingerprintOf = (ctx: Context) => createHash('sha256').update(`${ctx.method} ${ctx.path}\n${JSON.stringify(ctx.request.body ?? null)}`).digest('hex');

/** How a paid request ends; `write` turns each into the response. */
type GateOutcome =
  | Exclude<PaymentCheck, { kind: 'claimed' }>
  | { kind: 'paid'; answer: PaidAnswer; receipt: string }
  /** The work answered something other than a 200: nothing was settled, the answer goes out as is. */
  | { kind: 'unpaid'; answer: Answer };

/**
 * Koa adapter of the payment processor, after body validation:
 *
 *   check ─► claimed ─► start the work (admission: no capacity → 503, the facilitator never asked)
 *                    ─► verify, while the work runs ─► invalid: 402, the work aborted
 *                    ─► await the work ─► settle ─► write the answer
 *
 * The answer is written only here, after settlement, and Koa sends it only after this returns, so
 * nothing reaches the client before the payment settled, and a failure never carries the work's
 * headers.
 */
export function paymentGate(processor: PaymentProcessor, lifecycle?: Lifecycle): PaymentGateFactory {
  return (route) => {
    const resource = pricedResource(route);
    return async (ctx, work) => {
      try {
        const check = await processor.check(resource, ctx.get('PAYMENT-SIGNATURE') || undefined, fingerprintOf(ctx));
        write(ctx, check.kind === 'claimed' ? await pay(ctx, check.payment, work) : check);
      } finally {
        // Draining: this answer ends its connection. A keep-alive client would otherwise go on
        // sending paid requests over it (the closed listener only stops new connections), keeping
        // the drain busy until the deadline cuts them off.
        if (lifecycle?.draining) ctx.set('Connection', 'close');
      }
    };
  };

  async function pay(ctx: Context, payment: ClaimedPayment, work: PaidWork): Promise<GateOutcome> {
    const verdictRefused = new AbortController();
    let working: Promise<Answer>;
    try {
      // Work that can't be admitted throws here, synchronously (routeSpec.ts `handle`).
      working = Promise.resolve(work(verdictRefused.signal));
    } catch (error) {
      await payment.release();
      throw error;
    }
    working.catch(() => undefined); // awaited below, unless verify ends the request first

    let verdict;
    try {
      verdict = await payment.verify();
    } catch (error) {
      verdictRefused.abort();
      throw error;
    }
    if (verdict.kind !== 'verified') {
      verdictRefused.abort();
      return verdict;
    }
    ctx.state.logFields = { payer: verdict.payer, nonce: payment.nonce };

    let answer: Answer;
    try {
      answer = await working;
    } catch (error) {
      await payment.abandon();
      throw error;
    }
    if ((answer.status ?? 200) !== 200) {
      await payment.abandon();
      return { kind: 'unpaid', answer };
    }
    return settle(ctx, payment, paidAnswerOf(answer));
  }

  async function settle(ctx: Context, payment: ClaimedPayment, answer: PaidAnswer): Promise<GateOutcome> {
    if (lifecycle && !lifecycle.settlementAllowed()) {
      // Shutting down past the deadline: stop before settlement, never in the middle of it.
      await payment.abandon();
      throw new AppError('shutting_down', 'The service is shutting down; nothing was charged. Retry with the same payment.');
    }
    // A settlement lasts until its answer has left: shutdown waits for it before cutting connections,
    // or a PDF that was just paid for would be lost with the process (the store is in memory).
    const endSettlement = lifecycle?.beginSettlement();
    if (endSettlement) whenResponseDone(ctx, endSettlement);
    const work = { contentType: answer.contentType, body: answer.body };
    const outcome = await payment.settle(work);
    if (outcome.kind === 'settle-failed') return outcome;
    try {
      await payment.complete(work, outcome);
    } catch (error) {
      // Paid and rendered: deliver the PDF even if it can't be kept for re-sends.
      ctx.state.logFields = { ...ctx.state.logFields, resultNotStored: String(error) };
    }
    return { kind: 'paid', answer, receipt: outcome.header };
  }
}

function write(ctx: Context, outcome: GateOutcome): void {
  switch (outcome.kind) {
    case 'payment-required':
      return challenge(ctx, outcome);
    case 'settle-failed':
      return settlementFailed(ctx, outcome);
    case 'unpaid':
      return writeAnswer(ctx, outcome.answer);
    case 'paid':
      writeAnswer(ctx, { contentType: outcome.answer.contentType, headers: outcome.answer.headers, body: outcome.answer.body });
      return receipt(ctx, outcome.receipt);
    case 'replayed':
    case 'collected':
      writeAnswer(ctx, { contentType: outcome.result.contentType, body: outcome.result.body });
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
