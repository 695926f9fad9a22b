import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../errors.js';
import { FacilitatorError, type FacilitatorClient, type SettleResponse } from './facilitatorClient.js';
import { mismatchReason } from './matchOffer.js';
import { buildPaymentRequired, buildRequirements, type OfferTerms, type PricedResource } from './offer.js';
import { decodePaymentSignature } from './paymentHeader.js';
import { authorizationKey, type PaidResult, type PaymentStore } from './paymentStore.js';

/**
 * The x402 v2 flow of one paid request, free of any web framework. The outcome of a payment check
 * is a discriminated union; settlement is a separate step the caller runs only after the work
 * succeeded (X402.md "What the server must do").
 */
export type PaymentCheck =
  | { kind: 'payment-required'; header: string; paymentRequired: PaymentRequired }
  | { kind: 'replayed'; result: PaidResult }
  | { kind: 'payment-verified'; payment: VerifiedPayment };

export type SettleOutcome =
  | { kind: 'settled'; header: string; receipt: SettleResponse }
  | { kind: 'settle-failed'; header: string; receipt: SettleResponse };

export interface VerifiedPayment {
  payer: string;
  nonce: string;
  /** Call only after the work succeeded. Throws a 502/504 AppError when the outcome is unknown. */
  settle(): Promise<SettleOutcome>;
  /** The work failed: nothing was settled, free the authorization for a retry. */
  abandon(): Promise<void>;
  /** Keep the paid result so a re-sent signature gets it again without a second charge. */
  complete(result: Omit<PaidResult, 'fingerprint' | 'receipt'>, settled: SettleOutcome & { kind: 'settled' }): Promise<void>;
}

export type PaymentEvent = 'challenged' | 'invalid' | 'verified' | 'settled' | 'settle_failed' | 'settle_unknown' | 'replayed' | 'abandoned';

export interface PaymentProcessorOptions {
  terms: OfferTerms;
  baseUrl: string;
  facilitator: FacilitatorClient;
  store: PaymentStore;
  /** How long a duplicate of an in-flight payment waits for its result before a 409. */
  duplicateWaitMs?: number;
  now?: () => number;
  onEvent?: (event: PaymentEvent, details: { payer?: string; nonce?: string; reason?: string }) => void;
}

export interface PaymentProcessor {
  requirements(resource: PricedResource): PaymentRequirements;
  check(resource: PricedResource, header: string | undefined, fingerprint: string): Promise<PaymentCheck>;
}

export function createPaymentProcessor(options: PaymentProcessorOptions): PaymentProcessor {
  const { terms, baseUrl, facilitator, store } = options;
  const now = options.now ?? Date.now;
  const duplicateWaitMs = options.duplicateWaitMs ?? 60_000;
  const emit = options.onEvent ?? (() => {});

  const challenge = (resource: PricedResource, error: string): PaymentCheck => {
    const paymentRequired = buildPaymentRequired(resource, terms, baseUrl, error);
    return { kind: 'payment-required', header: encodePaymentRequiredHeader(paymentRequired), paymentRequired };
  };

  async function claimOrWait(key: string, expiresAtMs: number, fingerprint: string) {
    const deadline = now() + duplicateWaitMs;
    for (;;) {
      const claim = await store.claim(key, expiresAtMs);
      if (claim.kind === 'done') {
        if (claim.result.fingerprint !== fingerprint) {
          throw new AppError(409, 'payment_reused', 'This payment authorization was already used for a different request body. Sign a new one.');
        }
        return claim;
      }
      if (claim.kind === 'claimed') return claim;
      if (now() >= deadline) {
        throw new AppError(409, 'payment_in_progress', 'This payment authorization is being processed by another request. Retry later to collect the result.', {
          headers: { 'Retry-After': '5' },
        });
      }
      await sleep(100);
    }
  }

  return {
    requirements: (resource) => buildRequirements(resource, terms),

    async check(resource, header, fingerprint) {
      if (!header) {
        emit('challenged', {});
        return challenge(resource, 'Payment required');
      }
      const decoded = decodePaymentSignature(header);
      const offer = buildRequirements(resource, terms);
      const { from, nonce, validBefore } = decoded.authorization;
      const mismatch = mismatchReason(decoded, offer, Math.floor(now() / 1000));
      if (mismatch) {
        emit('invalid', { payer: from, nonce, reason: mismatch });
        return challenge(resource, mismatch);
      }

      const key = authorizationKey(offer.network, offer.asset, from, nonce);
      const expiresAtMs = Number(validBefore) * 1000;
      const claim = await claimOrWait(key, expiresAtMs, fingerprint);
      if (claim.kind === 'done') {
        emit('replayed', { payer: from, nonce });
        return { kind: 'replayed', result: claim.result };
      }

      let verdict;
      try {
        // Always OUR requirements: the client's copy in `accepted` is unsigned.
        verdict = await facilitator.verify(decoded.payload, offer);
      } catch (error) {
        await store.release(key);
        throw facilitatorFailure(error, 'verify');
      }
      if (!verdict.isValid) {
        await store.release(key);
        const reason = verdict.invalidReason ?? 'payment_invalid';
        emit('invalid', { payer: from, nonce, reason });
        return challenge(resource, verdict.invalidMessage ? `${reason}: ${verdict.invalidMessage}` : reason);
      }
      emit('verified', { payer: from, nonce });

      let settling = false;
      const payment: VerifiedPayment = {
        payer: verdict.payer ?? from,
        nonce,
        async settle() {
          settling = true;
          let receipt: SettleResponse;
          try {
            receipt = await facilitator.settle(decoded.payload, offer);
          } catch (error) {
            // The transfer may or may not have happened: never answer 402 (the client would pay
            // again) and keep the authorization locked until it expires.
            emit('settle_unknown', { payer: from, nonce, reason: (error as Error).message });
            throw settlementUnknown(error);
          }
          if (!receipt.success && /pending/i.test(receipt.errorReason ?? '')) {
            emit('settle_unknown', { payer: from, nonce, reason: receipt.errorReason });
            throw settlementUnknown(new Error(receipt.errorReason));
          }
          const header = encodePaymentResponseHeader({ ...receipt, transaction: receipt.transaction, network: receipt.network as `${string}:${string}` });
          if (!receipt.success) {
            await store.release(key);
            emit('settle_failed', { payer: from, nonce, reason: receipt.errorReason });
            return { kind: 'settle-failed', header, receipt };
          }
          emit('settled', { payer: from, nonce });
          return { kind: 'settled', header, receipt };
        },
        async abandon() {
          if (settling) return; // an unknown settlement keeps its lock
          await store.release(key);
          emit('abandoned', { payer: from, nonce });
        },
        async complete(result, settled) {
          await store.complete(key, { ...result, fingerprint, receipt: settled.header }, expiresAtMs);
        },
      };
      return { kind: 'payment-verified', payment };
    },
  };
}

function facilitatorFailure(error: unknown, operation: string): AppError {
  if (error instanceof FacilitatorError && error.kind === 'timeout') {
    return new AppError(504, 'facilitator_timeout', `The payment facilitator did not answer the ${operation} in time. Nothing was charged; retry.`, { cause: error });
  }
  return new AppError(502, 'facilitator_unavailable', `The payment facilitator failed during ${operation}. Nothing was charged; retry.`, { cause: error });
}

function settlementUnknown(error: unknown): AppError {
  const timeout = error instanceof FacilitatorError && error.kind === 'timeout';
  return new AppError(
    timeout ? 504 : 502,
    'settlement_unknown',
    'The payment facilitator did not confirm the settlement. Do not sign a new payment: re-send the same PAYMENT-SIGNATURE later to collect the result.',
    { cause: error, headers: { 'Retry-After': '10' } },
  );
}
