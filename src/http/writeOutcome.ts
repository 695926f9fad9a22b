import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { CallOutcome } from '../operations/callOperation.js';
import type { Answer } from '../operations/operation.js';
import type { SettleResponse } from '../payment/facilitatorClient.js';
import type { PaymentRequiredCheck, SettleFailed } from '../payment/paymentProcessor.js';
import { PAYMENT_REQUIRED, PAYMENT_RESPONSE, paymentRequiredHeader, paymentResponseHeader } from './paymentEncoding.js';

/**
 * The Koa side of a call's outcome (operations/callOperation.ts). The answer is written only here,
 * after settlement for a paid operation, and Koa sends it only after the call returned, so nothing
 * reaches the client before the payment settled, and a failure never carries the work's headers.
 */
export function writeOutcome(ctx: Context, outcome: CallOutcome): void {
  switch (outcome.kind) {
    case 'payment-required':
      return challenge(ctx, outcome);
    case 'settle-failed':
      return settlementFailed(ctx, outcome);
    case 'answered':
      return writeAnswer(ctx, outcome.answer);
    case 'paid':
      writeAnswer(ctx, outcome.answer);
      return receipt(ctx, outcome.receipt, outcome.answer.body);
    case 'replayed':
    case 'collected':
      // The stored answer whole: what the first answer said (status, type, headers, body).
      writeAnswer(ctx, outcome.result);
      return receipt(ctx, outcome.result.receipt, outcome.result.body);
  }
}

function writeAnswer(ctx: Context, answer: Answer): void {
  ctx.status = answer.status ?? 200;
  if (answer.headers) ctx.set(answer.headers);
  ctx.body = answer.body;
  if (answer.contentType) ctx.type = answer.contentType;
}

/**
 * A paid answer's settlement and, as Content-Digest (RFC 9530), the SHA-256 of the bytes it paid
 * for: computed here from the bytes sent, so a replay of the stored answer sends the same digest
 * (MCP's file results carry the same hash as sha256, toolResults.ts).
 */
function receipt(ctx: Context, settlement: SettleResponse, body: Buffer): void {
  ctx.set(PAYMENT_RESPONSE, paymentResponseHeader(settlement));
  ctx.set('Cache-Control', 'private');
  ctx.set('Content-Digest', contentDigestOf(body));
}

const contentDigestOf = (body: Buffer): string => `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;

/**
 * The challenge: what a client needs to pay in PAYMENT-REQUIRED (paymentEncoding.ts keeps it within
 * a default proxy's header buffer), the whole PaymentRequired, discovery extensions included, in
 * the JSON body's `payment_required`.
 */
function challenge(ctx: Context, check: PaymentRequiredCheck): void {
  ctx.status = 402;
  ctx.set(PAYMENT_REQUIRED, paymentRequiredHeader(check.paymentRequired));
  ctx.set('Cache-Control', 'no-store');
  ctx.body = {
    error: {
      code: 'payment_required',
      message: check.message,
      reason: check.paymentRequired.error ?? 'payment_required',
    },
    payment_required: check.paymentRequired,
  };
}

function settlementFailed(ctx: Context, failed: SettleFailed): void {
  ctx.status = 402;
  ctx.set(PAYMENT_RESPONSE, paymentResponseHeader(failed.receipt));
  ctx.set('Cache-Control', 'no-store');
  ctx.body = {
    error: {
      code: 'settlement_failed',
      message: `The payment could not be settled: ${failed.receipt.errorReason ?? 'unknown reason'}. No PDF was delivered.`,
    },
  };
}
