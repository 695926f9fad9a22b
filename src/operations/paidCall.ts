import { AppError } from '../errors.js';
import type { Lifecycle } from '../lifecycle.js';
import type { PricedResource } from '../payment/offer.js';
import type { SettleResponse } from '../payment/facilitatorClient.js';
import type { DecodedPayment } from '../payment/paymentPayload.js';
import type { SignInInput } from '../payment/signInWithX/signInProof.js';
import type { ClaimedPayment, PayerAdmission, PaymentCheck, PaymentProcessor } from '../payment/paymentProcessor.js';
import { paidAnswerOf, type Answer, type PaidAnswer } from './operation.js';

/**
 * The work of a paid operation, started once the authorization is claimed. `marks.specimen`: it
 * was paid with test money (payment/trial/), so what it makes must be marked as a specimen.
 */
export type PaidWork = (signal: AbortSignal, marks?: { specimen?: boolean }) => Answer | Promise<Answer>;

/** How a paid call ends; each transport (HTTP, MCP) turns it into its own answer. */
export type PaidOutcome =
  | Exclude<PaymentCheck, { kind: 'claimed' }>
  | { kind: 'paid'; answer: PaidAnswer; receipt: SettleResponse }
  /** A free operation's answer, or paid work that answered something other than a 200 (nothing settled): it goes out as is. */
  | { kind: 'answered'; answer: Answer };

/** What a transport learns along the way (for its log) and how it tells when its answer has left. */
export interface PaidCallHooks {
  /** A sign-in-with-x proof as the transport carries it, for a free re-download (signInWithXCall.ts). */
  signIn?: SignInInput | undefined;
  /** The payer rate limit (rateLimit.ts), taken only for a fresh authorization that passed every local check. */
  admitPayer?: PayerAdmission | undefined;
  onVerified?(details: { payer: string; nonce: string }): void;
  onResultNotStored?(error: unknown): void;
  /** Calls `done` once the answer has been delivered (or can't be): shutdown waits for paid answers. */
  whenDelivered?(done: () => void): void;
}

/**
 * One paid call, free of any transport, after the input was validated:
 *
 *   check ─► claimed ─► start the work (admission: no capacity → throws, the facilitator never asked)
 *                    ─► verify, while the work runs ─► invalid: challenge, the work aborted
 *                    ─► await the work ─► settle ─► the paid answer
 *
 * Nothing is handed back before the payment settled; HTTP and MCP share it (callOperation.ts), so
 * both keep the same guarantees (no charge for invalid input or failed work, replay, exactly once).
 */
export function paidCaller(processor: PaymentProcessor, lifecycle?: Lifecycle) {
  return async function paidCall(
    resource: PricedResource,
    payment: DecodedPayment | undefined,
    fingerprint: string,
    work: PaidWork,
    hooks: PaidCallHooks = {},
  ): Promise<PaidOutcome> {
    const check = await processor.check(resource, payment, fingerprint, hooks.admitPayer);
    return check.kind === 'claimed' ? pay(check.payment, work, hooks) : check;
  };

  async function pay(payment: ClaimedPayment, work: PaidWork, hooks: PaidCallHooks): Promise<PaidOutcome> {
    const verdictRefused = new AbortController();
    let working: Promise<Answer>;
    try {
      // Work that can't be admitted throws here, synchronously (operation.ts `handle`).
      working = Promise.resolve(work(verdictRefused.signal));
    } catch (error) {
      await payment.release();
      throw error;
    }
    working.catch(() => undefined); // awaited below, unless verify ends the call first

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
    hooks.onVerified?.({ payer: verdict.payer, nonce: payment.nonce });

    let answer: Answer;
    try {
      answer = await working;
    } catch (error) {
      await payment.abandon();
      throw error;
    }
    if ((answer.status ?? 200) !== 200) {
      await payment.abandon();
      return { kind: 'answered', answer };
    }
    return settle(payment, paidAnswerOf(answer), hooks);
  }

  async function settle(payment: ClaimedPayment, answer: PaidAnswer, hooks: PaidCallHooks): Promise<PaidOutcome> {
    if (lifecycle && !lifecycle.settlementAllowed()) {
      // Shutting down past the deadline: stop before settlement, never in the middle of it.
      await payment.abandon();
      throw new AppError(
        'shutting_down',
        'The service is shutting down; nothing was charged. Retry with the same payment.',
      );
    }
    // A settlement lasts until its answer has left: shutdown waits for it before cutting connections,
    // or a PDF that was just paid for would be lost with the process (the store is in memory).
    // Without a transport's hook (MCP), it lasts at least until settled and stored.
    const endSettlement = lifecycle?.beginSettlement();
    if (endSettlement && hooks.whenDelivered) hooks.whenDelivered(endSettlement);
    try {
      const work = { status: 200, contentType: answer.contentType, headers: answer.headers, body: answer.body };
      const outcome = await payment.settle(work);
      if (outcome.kind === 'settle-failed') return outcome;
      try {
        await payment.complete(work, outcome);
      } catch (error) {
        // Paid and done: deliver the result even if it can't be kept for re-sends.
        hooks.onResultNotStored?.(error);
      }
      return { kind: 'paid', answer, receipt: outcome.receipt };
    } finally {
      if (endSettlement && !hooks.whenDelivered) endSettlement();
    }
  }
}

export type PaidCall = ReturnType<typeof paidCaller>;
