import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { AppError } from '../errors.js';
import { FacilitatorError, type FacilitatorClient, type SettleResponse } from './facilitatorClient.js';
import { offerMismatch, windowMismatch } from './matchOffer.js';
import { createChallenges } from './challenges.js';
import { buildRequirements, type OfferTerms, type PricedResource } from './offer.js';
import type { DecodedPayment } from './paymentHeader.js';
import {
  authorizationKey,
  claimWhenFree,
  type PaidResult,
  type PaymentStore,
  type PendingResult,
  type StoredAnswer,
} from './paymentStore.js';
import type { ReceiptSigner } from './receipts.js';
import { classifySettlement } from './settlementOutcome.js';
import { signatureHashOf } from './signatureHash.js';
import { isPlainEcdsa, signerMismatch } from './signerCheck.js';

/**
 * The x402 v2 flow of one paid request, free of any web framework. The outcome of a payment check
 * is a discriminated union; a fresh authorization comes back claimed but not yet verified, so the
 * caller can start the work while the facilitator verifies, and settles only after both the work
 * succeeded and verify said valid (the resource server's steps in coinbase/x402 specs/x402-specification-v2.md; docs/paying-and-x402.md).
 */
export type PaymentCheck =
  | PaymentRequiredCheck
  /** Paid earlier: the stored result again, no second charge. */
  | { kind: 'replayed'; result: PaidResult }
  /** An earlier settlement of unknown outcome is now confirmed: the PDF rendered then, with its receipt. */
  | { kind: 'collected'; result: PaidResult }
  /** An earlier settlement of unknown outcome turned out to have failed for good: nothing was charged. */
  | SettleFailed
  /** A fresh authorization, locked for this request: verify it (and do the work meanwhile). */
  | { kind: 'claimed'; payment: ClaimedPayment };

/**
 * `paymentRequired` is the whole challenge (its discovery-only extensions too); the transport
 * decides what of it travels where (http/paymentEncoding.ts). `paymentRequired.error` is an x402
 * reason code; `message` says it for people (the 402's JSON body).
 */
export type PaymentRequiredCheck = {
  kind: 'payment-required';
  paymentRequired: PaymentRequired;
  message: string;
};
export type SettleFailed = { kind: 'settle-failed'; receipt: SettleResponse };
export type SettleOutcome = { kind: 'settled'; receipt: SettleResponse } | SettleFailed;
export type Verdict = { kind: 'verified'; payer: string } | PaymentRequiredCheck;

/** What the paid work produced (its whole answer), kept with the claim while a settlement's outcome is unknown. */
export type WorkResult = StoredAnswer;

export interface ClaimedPayment {
  /** The authorization's signer and nonce, for the log. */
  from: string;
  nonce: string;
  /**
   * Asks the facilitator. Invalid: the claim is freed and the answer is a 402 challenge; a
   * facilitator failure frees it too and throws facilitator_unavailable / facilitator_timeout.
   */
  verify(): Promise<Verdict>;
  /** The request ends before it was verified (e.g. no render capacity): free the authorization. */
  release(): Promise<void>;
  /**
   * Call only after the work succeeded and verify said valid. When the outcome is unknown, parks
   * the work for a re-send of the same signature to collect, and throws settlement_unknown.
   */
  settle(work: WorkResult): Promise<SettleOutcome>;
  /** The work failed after a valid verify: nothing was settled, free the authorization for a retry. */
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
  | 'abandoned'
  /** Settled, but the offer-receipt receipt could not be signed: delivered without it. */
  | 'receipt_unsigned';

export interface PaymentProcessorOptions {
  terms: OfferTerms;
  baseUrl: string;
  facilitator: FacilitatorClient;
  store: PaymentStore;
  /** How long a duplicate of an in-flight payment waits for its result before a 409. */
  duplicateWaitMs?: number;
  now?: () => number;
  onEvent?: (event: PaymentEvent, details: { payer?: string; nonce?: string; reason?: string }) => void;
  /** The offer-receipt extension (receipts.ts): signed offers in every 402, a signed receipt in every settlement. */
  receipts?: ReceiptSigner | undefined;
}

/**
 * Who is about to be verified with the facilitator: `proven` when the authorization's 65-byte
 * signature recovered to `from` (signerCheck.ts); a smart account's signature (any other length)
 * can't be checked here, so `from` is only claimed.
 */
export interface Payer {
  from: string;
  proven: boolean;
}

/**
 * Spends a payer's budget (the HTTP layer's payer rate limit) before the facilitator hears of a
 * fresh authorization; throws to refuse it (the claim is then given back). Called only for a
 * payload that passed every local check, never for a forgery, a replay or a refused body.
 */
export type PayerAdmission = (payer: Payer) => Promise<void>;

export interface PaymentProcessor {
  requirements(resource: PricedResource): PaymentRequirements;
  /** The challenge of `resource` as a 402 carries it (kept, not signed per request: challenges.ts). */
  challenge(resource: PricedResource, error: string): Promise<PaymentRequired>;
  /** `payment`: decoded once by the caller (paymentHeader.ts decodePayment); undefined: the challenge. */
  check(
    resource: PricedResource,
    payment: DecodedPayment | undefined,
    fingerprint: string,
    admit?: PayerAdmission,
  ): Promise<PaymentCheck>;
}

/**
 * How long a claim may outlive the request at most. An authorization is claimed until its
 * validBefore; a client may sign a validBefore far in the future (or 2^256 - 1), which must neither
 * overflow a store's expiry nor pin memory for years.
 */
const MAX_CLAIM_MS = 24 * 60 * 60 * 1000;

/** One authorization under our lock: everything the steps after the claim need. */
interface Claim {
  key: string;
  payload: PaymentPayload;
  offer: PaymentRequirements;
  expiresAtMs: number;
  details: { payer: string; nonce: string };
  /** The stored result or parked work of this authorization is handed only to this signature. */
  signatureHash: string;
}

export function createPaymentProcessor(options: PaymentProcessorOptions): PaymentProcessor {
  const { terms, baseUrl, facilitator, store, receipts } = options;
  const now = options.now ?? Date.now;
  const duplicateWaitMs = options.duplicateWaitMs ?? 60_000;
  const emit = options.onEvent ?? (() => {});

  const challenges = createChallenges({ terms, baseUrl, receipts, now });
  const challenge = async (
    resource: PricedResource,
    error: string,
    message = error,
  ): Promise<PaymentRequiredCheck> => ({
    kind: 'payment-required',
    paymentRequired: await challenges.challenge(resource, error),
    message,
  });

  // The offer-receipt extension (receipts.ts): the settlement as delivered carries the signed receipt.
  const withReceipt = async (
    claim: Claim,
    receipt: SettleResponse,
    resource: PricedResource,
  ): Promise<SettleResponse> => {
    if (!receipts || !receipt.success) return receipt;
    try {
      return await receipts.signReceipt(
        { ...receipt, payer: receipt.payer ?? claim.details.payer },
        `${baseUrl}${resource.path}`,
      );
    } catch (error) {
      // Paid and done: deliver without a receipt rather than lose the result.
      emit('receipt_unsigned', { ...claim.details, reason: String(error) });
      return receipt;
    }
  };

  async function claimOrWait(claim: Claim, fingerprint: string) {
    const outcome = await claimWhenFree(store, claim.key, claim.expiresAtMs, {
      waitMs: duplicateWaitMs,
      now,
      whenStillBusy: () =>
        new AppError(
          'payment_in_progress',
          'This payment authorization is being processed by another request. Retry later to collect the result.',
        ),
    });
    // Another signature over a paid or parked authorization (from and nonce are public on chain):
    // it gets nothing, and nothing is settled with it.
    if (outcome.kind === 'done' && outcome.result.signatureHash !== claim.signatureHash)
      return { kind: 'other-signature' as const };
    if (outcome.kind === 'parked' && outcome.pending.signatureHash !== claim.signatureHash) {
      await store.park(claim.key, outcome.pending, claim.expiresAtMs); // hand it back untouched
      return { kind: 'other-signature' as const };
    }
    if (outcome.kind === 'done' && outcome.result.fingerprint !== fingerprint) throw paymentReused();
    if (outcome.kind === 'parked' && outcome.pending.fingerprint !== fingerprint) {
      await store.park(claim.key, outcome.pending, claim.expiresAtMs); // hand it back for the right body
      throw paymentReused();
    }
    return outcome;
  }

  /**
   * One settle call and what it means, for a first settlement and for a re-settle alike: unknown
   * parks the work with the claim (never a 402: the transfer may have happened) and throws; a
   * definite failure frees the authorization; success is the caller's to record.
   */
  async function settleOnce(claim: Claim, pending: PendingResult, resettle: boolean) {
    const { details } = claim;
    let receipt: SettleResponse;
    try {
      // Always OUR requirements: the client's copy in `accepted` is unsigned.
      receipt = await facilitator.settle(claim.payload, claim.offer);
    } catch (error) {
      emit('settle_unknown', { ...details, reason: (error as Error).message });
      await park(claim, pending);
      throw settlementUnknown(error);
    }
    const outcome = classifySettlement(receipt, { resettle });
    if (outcome === 'unknown') {
      emit('settle_unknown', { ...details, reason: receipt.errorReason });
      await park(claim, { ...pending, transaction: receipt.transaction || pending.transaction });
      throw settlementUnknown(new Error(receipt.errorReason));
    }
    if (outcome === 'failed') {
      await store.release(claim.key).catch(() => undefined); // it expires at validBefore anyway
      emit('settle_failed', { ...details, reason: receipt.errorReason });
      return { kind: 'settle-failed' as const, receipt };
    }
    return { kind: outcome, receipt };
  }

  /** Parks the work of an unknown settlement; if even that fails, the claim still holds the nonce. */
  async function park(claim: Claim, pending: PendingResult) {
    try {
      await store.park(claim.key, pending, claim.expiresAtMs);
    } catch (error) {
      emit('settle_unknown', {
        ...claim.details,
        reason: `the work could not be kept for collection: ${String(error)}`,
      });
    }
  }

  /**
   * A re-send of a signature whose settlement outcome was unknown. Verify can't tell (it answers
   * "nonce already used" once the transfer happened), so settle again and read the answer the
   * re-settle way (settlementOutcome.ts).
   */
  async function collect(claim: Claim, pending: PendingResult, resource: PricedResource): Promise<PaymentCheck> {
    const step = await settleOnce(claim, pending, true);
    if (step.kind === 'settle-failed') return step;
    // Settled now, or the first settlement went through (the facilitator says the authorization
    // is already used, and only this signature's holder could have used it: see docs/paying-and-x402.md).
    const { receipt } = step;
    const confirmed: SettleResponse = await withReceipt(
      claim,
      step.kind === 'settled'
        ? receipt
        : {
            success: true,
            transaction: pending.transaction || receipt.transaction || '',
            network: receipt.network || claim.offer.network,
            payer: receipt.payer ?? claim.details.payer,
          },
      resource,
    );
    const { transaction: _transaction, ...answer } = pending;
    const result: PaidResult = { ...answer, receipt: confirmed };
    try {
      await store.complete(claim.key, result, claim.expiresAtMs);
    } catch {
      // Paid and rendered: deliver anyway. The entry stays parked; a later re-send settles again,
      // hears "already used" and gets the same PDF.
    }
    emit('collected', {
      ...claim.details,
      reason: step.kind === 'settled' ? 'settled on re-send' : receipt.errorReason,
    });
    return { kind: 'collected', result };
  }

  /** The claimed authorization's remaining steps: verify, then settle or give it back. */
  function claimed(
    claim: Claim,
    decoded: DecodedPayment,
    fingerprint: string,
    resource: PricedResource,
  ): ClaimedPayment {
    const { details } = claim;
    let state: 'claimed' | 'verified' | 'released' | 'settling' = 'claimed';
    const release = async () => {
      if (state !== 'claimed' && state !== 'verified') return; // a settlement attempt keeps its lock
      state = 'released';
      await store.release(claim.key);
    };
    return {
      from: details.payer,
      nonce: details.nonce,
      async verify() {
        let verdict;
        try {
          verdict = await facilitator.verify(claim.payload, claim.offer);
        } catch (error) {
          await release();
          throw facilitatorFailure(error, 'verify');
        }
        if (!verdict.isValid) {
          await release();
          const reason = verdict.invalidReason ?? 'payment_invalid';
          emit('invalid', { ...details, reason });
          return challenge(resource, reason, verdict.invalidMessage ? `${reason}: ${verdict.invalidMessage}` : reason);
        }
        state = 'verified';
        emit('verified', details);
        return { kind: 'verified', payer: verdict.payer ?? details.payer };
      },
      release,
      async settle(work) {
        if (state !== 'verified') throw new Error(`settle called on a payment that is ${state}, not verified`);
        state = 'settling';
        const pending: PendingResult = {
          ...storedAnswerOf(work),
          fingerprint,
          transaction: '',
          signatureHash: claim.signatureHash,
        };
        // Written ahead of the settle call, held by this request: should this process die between
        // the transfer and `complete`, a re-send of the same signature takes the work over once
        // the store's lease runs out and collects it (the re-settle hears "already used"), where a
        // bare claim would only have expired with the payment taken. The lease (60 s by default)
        // outlasts a settle call (FACILITATOR_TIMEOUT_MS, 10 s by default). Best effort: if it
        // can't be written, the claim still holds the authorization, as it always did.
        await store.park(claim.key, pending, claim.expiresAtMs, { hold: true }).catch(() => undefined);
        const step = await settleOnce(claim, pending, false);
        if (step.kind === 'settle-failed') return step;
        emit('settled', details);
        const delivered = await withReceipt(claim, step.receipt, resource);
        return { kind: 'settled', receipt: delivered };
      },
      async abandon() {
        if (state !== 'verified') return release();
        await release();
        emit('abandoned', details);
      },
      async complete(result, settled) {
        await store.complete(
          claim.key,
          { ...storedAnswerOf(result), fingerprint, receipt: settled.receipt, signatureHash: claim.signatureHash },
          claim.expiresAtMs,
        );
      },
    };
  }

  return {
    requirements: (resource) => buildRequirements(resource, terms),
    challenge: (resource, error) => challenges.challenge(resource, error),

    /** Challenge → decode → match our offer → claim (or replay, or collect) → time window. */
    async check(resource, decoded, fingerprint, admit) {
      if (!decoded) {
        emit('challenged', {});
        return challenge(resource, 'Payment required');
      }
      const offer = buildRequirements(resource, terms);
      const { from, nonce, validBefore } = decoded.authorization;
      const mismatch = offerMismatch(decoded, offer) ?? challenges.echoMismatch(decoded.payload.extensions, resource);
      if (mismatch) {
        emit('invalid', { payer: from, nonce, reason: mismatch.message });
        return challenge(resource, mismatch.reason, mismatch.message);
      }
      const { signature } = decoded.payload.payload as { signature: string };
      const forged = await signerMismatch(decoded.authorization, signature, offer);
      if (forged) {
        emit('invalid', { payer: from, nonce, reason: forged });
        return challenge(resource, forged);
      }

      const claim: Claim = {
        key: authorizationKey(offer.network, offer.asset, from, nonce),
        payload: challenges.withDiscovery(decoded.payload, resource),
        offer,
        expiresAtMs: Math.min(Number(validBefore) * 1000, now() + MAX_CLAIM_MS),
        details: { payer: from, nonce },
        signatureHash: signatureHashOf(decoded.payload),
      };
      const outcome = await claimOrWait(claim, fingerprint);
      if (outcome.kind === 'other-signature') {
        emit('invalid', { ...claim.details, reason: 'invalid_signature' });
        return challenge(resource, 'invalid_signature');
      }
      if (outcome.kind === 'done') {
        emit('replayed', claim.details);
        return { kind: 'replayed', result: outcome.result };
      }
      if (outcome.kind === 'parked') return collect(claim, outcome.pending, resource);

      const outsideWindow = windowMismatch(decoded.authorization, Math.floor(now() / 1000));
      if (outsideWindow) {
        await store.release(claim.key);
        emit('invalid', { ...claim.details, reason: outsideWindow.message });
        return challenge(resource, outsideWindow.reason, outsideWindow.message);
      }
      // Last, so that only a fresh authorization the facilitator will hear of spends the budget:
      // a forgery was refused above, a re-send of a paid or on-chain signature replays for free.
      try {
        await admit?.({ from: from.toLowerCase(), proven: isPlainEcdsa(signature) });
      } catch (error) {
        await store.release(claim.key);
        throw error;
      }
      return { kind: 'claimed', payment: claimed(claim, decoded, fingerprint, resource) };
    },
  };
}

/** Exactly the answer's fields: a caller's object may carry more, which must not reach the store. */
const storedAnswerOf = ({ status, contentType, headers, body }: WorkResult): StoredAnswer => ({
  status,
  contentType,
  headers,
  body,
});

const paymentReused = () =>
  new AppError(
    'payment_reused',
    'This payment authorization was already used for a different request body. Sign a new one.',
  );

function facilitatorFailure(error: unknown, operation: string): AppError {
  if (error instanceof FacilitatorError && error.kind === 'timeout') {
    return new AppError(
      'facilitator_timeout',
      `The payment facilitator did not answer the ${operation} in time. Nothing was charged; retry.`,
      { cause: error },
    );
  }
  return new AppError(
    'facilitator_unavailable',
    `The payment facilitator failed during ${operation}. Nothing was charged; retry.`,
    { cause: error },
  );
}

function settlementUnknown(error: unknown): AppError {
  return new AppError(
    'settlement_unknown',
    'The payment facilitator did not confirm the settlement. Do not sign a new payment: re-send the same request with the same PAYMENT-SIGNATURE to collect the PDF once the settlement is confirmed (nothing is charged twice).',
    { cause: error, timedOut: error instanceof FacilitatorError && error.kind === 'timeout' },
  );
}
