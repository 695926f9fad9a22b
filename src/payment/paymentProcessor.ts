import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { AppError } from '../errors.js';
import type { FacilitatorClient } from './facilitatorClient.js';
import { offerMismatch, windowMismatch } from './matchOffer.js';
import { createChallenges } from './challenges.js';
import { claimedPayment } from './claimedPayment.js';
import { buildRequirements, type OfferTerms, type PricedResource } from './offer.js';
import type { Claim, PayerAdmission, PaymentCheck, PaymentEvent, PaymentRequiredCheck } from './paymentCheck.js';
import { paymentReused } from './paymentErrors.js';
import type { DecodedPayment } from './paymentPayload.js';
import { authorizationKey, claimWhenFree, type PaymentStore } from './paymentStore.js';
import type { ReceiptSigner } from './receipts.js';
import { createSettlement } from './settlement.js';
import { signatureHashOf } from './signatureHash.js';
import { isPlainEcdsa, signerMismatch } from './signerCheck.js';

export type {
  ClaimedPayment,
  Payer,
  PayerAdmission,
  PaymentCheck,
  PaymentEvent,
  PaymentRequiredCheck,
  SettleFailed,
  SettleOutcome,
} from './paymentCheck.js';

/**
 * The x402 v2 flow of one paid request, free of any web framework: the challenge, then the local
 * checks and the claim of an authorization (here), its verify and settle (claimedPayment.ts,
 * settlement.ts). A fresh authorization comes back claimed but not yet verified, so the caller
 * can start the work while the facilitator verifies (paymentCheck.ts).
 */
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
  /**
   * Offers on other networks that every challenge lists after ours (the trial network's:
   * trial/trialPayments.ts), so that each gets its signed offer when receipts are on. Payments on
   * them go to their own processor; this one's check refuses them.
   */
  alsoAccepts?: ((resource: PricedResource) => PaymentRequirements[]) | undefined;
}

export interface PaymentProcessor {
  requirements(resource: PricedResource): PaymentRequirements;
  /** The challenge of `resource` as a 402 carries it (kept, not signed per request: challenges.ts). */
  challenge(resource: PricedResource, error: string): Promise<PaymentRequired>;
  /** `payment`: decoded once by the caller (paymentPayload.ts decodePayment); undefined: the challenge. */
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

export function createPaymentProcessor(options: PaymentProcessorOptions): PaymentProcessor {
  const { terms, baseUrl, facilitator, store, receipts } = options;
  const now = options.now ?? Date.now;
  const duplicateWaitMs = options.duplicateWaitMs ?? 60_000;
  const emit = options.onEvent ?? (() => {});

  const challenges = createChallenges({ terms, baseUrl, receipts, alsoAccepts: options.alsoAccepts, now });
  const challenge = async (
    resource: PricedResource,
    error: string,
    message = error,
  ): Promise<PaymentRequiredCheck> => ({
    kind: 'payment-required',
    paymentRequired: await challenges.challenge(resource, error),
    message,
  });

  const settlement = createSettlement({ baseUrl, facilitator, store, receipts, emit });
  const steps = { facilitator, store, settlement, challenge, emit };

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
      if (outcome.kind === 'parked') return settlement.collect(claim, outcome.pending, resource);

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
      return { kind: 'claimed', payment: claimedPayment(claim, fingerprint, resource, steps) };
    },
  };
}
