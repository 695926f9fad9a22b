import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../errors.js';
import { FacilitatorError, type FacilitatorClient, type SettleResponse } from './facilitatorClient.js';
import { offerMismatch, windowMismatch } from './matchOffer.js';
import { buildPaymentRequired, buildRequirements, type OfferTerms, type PricedResource } from './offer.js';
import { decodePaymentSignature } from './paymentHeader.js';
import { authorizationKey, type PaidResult, type PaymentStore, type PendingResult } from './paymentStore.js';
import { classifySettlement } from './settlementOutcome.js';

/**
 * The x402 v2 flow of one paid request, free of any web framework. The outcome of a payment check
 * is a discriminated union; settlement is a separate step the caller runs only after the work
 * succeeded (X402.md "What the server must do").
 */
export type PaymentCheck =
  | { kind: 'payment-required'; header: string; paymentRequired: PaymentRequired }
  /** Paid earlier: the stored result again, no second charge. */
  | { kind: 'replayed'; result: PaidResult }
  /** An earlier settlement of unknown outcome is now confirmed: the PDF rendered then, with its receipt. */
  | { kind: 'collected'; result: PaidResult }
  /** An earlier settlement of unknown outcome turned out to have failed for good: nothing was charged. */
  | { kind: 'settle-failed'; header: string; receipt: SettleResponse }
  | { kind: 'payment-verified'; payment: VerifiedPayment };

export type SettleOutcome =
  | { kind: 'settled'; header: string; receipt: SettleResponse }
  | { kind: 'settle-failed'; header: string; receipt: SettleResponse };

/** What the paid work produced, kept with the claim while a settlement's outcome is unknown. */
export interface WorkResult {
  contentType: string;
  body: Buffer;
}

export interface VerifiedPayment {
  payer: string;
  nonce: string;
  /**
   * Call only after the work succeeded. When the outcome is unknown, parks the work for a re-send
   * of the same signature to collect, and throws a 502/504 AppError (never a 402).
   */
  settle(work: WorkResult): Promise<SettleOutcome>;
  /** The work failed: nothing was settled, free the authorization for a retry. */
  abandon(): Promise<void>;
  /** Keep the paid result so a re-sent signature gets it again without a second charge. */
  complete(result: WorkResult, settled: SettleOutcome & { kind: 'settled' }): Promise<void>;
}

export type PaymentEvent =
  | 'challenged'
  | 'invalid'
  | 'verified'
  | 'settled'
  | 'settle_failed'
  | 'settle_unknown'
  | 'replayed'
  | 'collected'
  | 'abandoned';

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

export interface CheckOptions {
  /**
   * Runs for a fresh claim, after the offer and time window checks and before verify (e.g. a
   * render capacity reservation): if it throws, the claim is released and the error propagates,
   * so a request that can't be served never reaches the facilitator.
   */
  beforeVerify?: () => void | Promise<void>;
}

export interface PaymentProcessor {
  requirements(resource: PricedResource): PaymentRequirements;
  check(resource: PricedResource, header: string | undefined, fingerprint: string, options?: CheckOptions): Promise<PaymentCheck>;
}

/**
 * How long a claim may outlive the request at most. An authorization is claimed until its
 * validBefore; a client may sign a validBefore far in the future (or 2^256 - 1), which must neither
 * overflow a store's expiry nor pin memory for years.
 */
const MAX_CLAIM_MS = 24 * 60 * 60 * 1000;

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
      if (claim.kind === 'done' && claim.result.fingerprint !== fingerprint) throw paymentReused();
      if (claim.kind === 'parked' && claim.pending.fingerprint !== fingerprint) {
        await store.park(key, claim.pending, expiresAtMs); // hand it back for the right body
        throw paymentReused();
      }
      if (claim.kind !== 'busy') return claim;
      if (now() >= deadline) {
        throw new AppError(409, 'payment_in_progress', 'This payment authorization is being processed by another request. Retry later to collect the result.', {
          headers: { 'Retry-After': '5' },
        });
      }
      await sleep(100);
    }
  }

  /** Parks the work of an unknown settlement; if even that fails, the claim still holds the nonce. */
  async function park(key: string, pending: PendingResult, expiresAtMs: number, details: { payer: string; nonce: string }) {
    try {
      await store.park(key, pending, expiresAtMs);
    } catch (error) {
      emit('settle_unknown', { ...details, reason: `the work could not be kept for collection: ${String(error)}` });
    }
  }

  /**
   * A re-send of a signature whose settlement outcome was unknown. Verify can't tell (it answers
   * "nonce already used" once the transfer happened), so settle again, with the same payload and
   * OUR requirements, and read the answer (settlementOutcome.ts).
   */
  async function collect(key: string, payload: PaymentPayload, offer: PaymentRequirements, pending: PendingResult, expiresAtMs: number, from: string, nonce: string): Promise<PaymentCheck> {
    const details = { payer: from, nonce };
    let receipt: SettleResponse;
    try {
      receipt = await facilitator.settle(payload, offer);
    } catch (error) {
      emit('settle_unknown', { ...details, reason: (error as Error).message });
      await park(key, pending, expiresAtMs, details);
      throw settlementUnknown(error);
    }
    const outcome = classifySettlement(receipt, { resettle: true });
    if (outcome === 'unknown') {
      emit('settle_unknown', { ...details, reason: receipt.errorReason });
      await park(key, { ...pending, transaction: receipt.transaction || pending.transaction }, expiresAtMs, details);
      throw settlementUnknown(new Error(receipt.errorReason));
    }
    if (outcome === 'failed') {
      await store.release(key).catch(() => undefined); // it expires at validBefore anyway
      emit('settle_failed', { ...details, reason: receipt.errorReason });
      return { kind: 'settle-failed', header: encodeReceipt(receipt), receipt };
    }
    // Settled now, or the first settlement went through (the facilitator says the authorization
    // is already used, and only this signature's holder could have used it: see README Payments).
    const confirmed: SettleResponse =
      outcome === 'settled'
        ? receipt
        : { success: true, transaction: pending.transaction || receipt.transaction || '', network: receipt.network || offer.network, payer: receipt.payer ?? from };
    const result: PaidResult = { fingerprint: pending.fingerprint, contentType: pending.contentType, body: pending.body, receipt: encodeReceipt(confirmed) };
    try {
      await store.complete(key, result, expiresAtMs);
    } catch {
      // Paid and rendered: deliver anyway. The entry stays parked; a later re-send settles again,
      // hears "already used" and gets the same PDF.
    }
    emit('collected', { ...details, reason: outcome === 'settled' ? 'settled on re-send' : receipt.errorReason });
    return { kind: 'collected', result };
  }

  return {
    requirements: (resource) => buildRequirements(resource, terms),

    async check(resource, header, fingerprint, checkOptions = {}) {
      if (!header) {
        emit('challenged', {});
        return challenge(resource, 'Payment required');
      }
      const decoded = decodePaymentSignature(header);
      const offer = buildRequirements(resource, terms);
      const { from, nonce, validBefore } = decoded.authorization;
      const mismatch = offerMismatch(decoded, offer);
      if (mismatch) {
        emit('invalid', { payer: from, nonce, reason: mismatch });
        return challenge(resource, mismatch);
      }

      const key = authorizationKey(offer.network, offer.asset, from, nonce);
      const expiresAtMs = Math.min(Number(validBefore) * 1000, now() + MAX_CLAIM_MS);
      const claim = await claimOrWait(key, expiresAtMs, fingerprint);
      if (claim.kind === 'done') {
        emit('replayed', { payer: from, nonce });
        return { kind: 'replayed', result: claim.result };
      }
      if (claim.kind === 'parked') return collect(key, decoded.payload, offer, claim.pending, expiresAtMs, from, nonce);

      const outsideWindow = windowMismatch(decoded.authorization, Math.floor(now() / 1000));
      if (outsideWindow) {
        await store.release(key);
        emit('invalid', { payer: from, nonce, reason: outsideWindow });
        return challenge(resource, outsideWindow);
      }
      if (checkOptions.beforeVerify) {
        try {
          await checkOptions.beforeVerify();
        } catch (error) {
          await store.release(key);
          throw error;
        }
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
        async settle(work) {
          settling = true;
          const details = { payer: from, nonce };
          const pending: PendingResult = { fingerprint, contentType: work.contentType, body: work.body, transaction: '' };
          let receipt: SettleResponse;
          try {
            receipt = await facilitator.settle(decoded.payload, offer);
          } catch (error) {
            // The transfer may or may not have happened: never answer 402 (the client would pay
            // again); keep the PDF with the locked authorization for a re-send to collect.
            emit('settle_unknown', { ...details, reason: (error as Error).message });
            await park(key, pending, expiresAtMs, details);
            throw settlementUnknown(error);
          }
          const outcome = classifySettlement(receipt, { resettle: false });
          if (outcome === 'unknown') {
            emit('settle_unknown', { ...details, reason: receipt.errorReason });
            await park(key, { ...pending, transaction: receipt.transaction ?? '' }, expiresAtMs, details);
            throw settlementUnknown(new Error(receipt.errorReason));
          }
          const header = encodeReceipt(receipt);
          if (outcome === 'failed') {
            await store.release(key);
            emit('settle_failed', { ...details, reason: receipt.errorReason });
            return { kind: 'settle-failed', header, receipt };
          }
          emit('settled', details);
          return { kind: 'settled', header, receipt };
        },
        async abandon() {
          if (settling) return; // a settlement attempt keeps its lock (parked, or done)
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

const encodeReceipt = (receipt: SettleResponse) =>
  encodePaymentResponseHeader({ ...receipt, transaction: receipt.transaction, network: receipt.network as `${string}:${string}` });

const paymentReused = () =>
  new AppError(409, 'payment_reused', 'This payment authorization was already used for a different request body. Sign a new one.');

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
    'The payment facilitator did not confirm the settlement. Do not sign a new payment: re-send the same request with the same PAYMENT-SIGNATURE to collect the PDF once the settlement is confirmed (nothing is charged twice).',
    { cause: error, headers: { 'Retry-After': '10' } },
  );
}
