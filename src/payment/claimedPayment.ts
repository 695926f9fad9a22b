import type { FacilitatorClient } from './facilitatorClient.js';
import type { PricedResource } from './offer.js';
import {
  storedAnswerOf,
  type Claim,
  type ClaimedPayment,
  type PaymentEvent,
  type PaymentRequiredCheck,
} from './paymentCheck.js';
import { facilitatorFailure } from './paymentErrors.js';
import type { PaymentStore, PendingResult } from './paymentStore.js';
import type { Settlement } from './settlement.js';

export interface ClaimedPaymentDependencies {
  facilitator: FacilitatorClient;
  store: PaymentStore;
  settlement: Settlement;
  /** The 402 answer to an authorization the facilitator found invalid. */
  challenge(resource: PricedResource, error: string, message: string): Promise<PaymentRequiredCheck>;
  emit: (event: PaymentEvent, details: { payer?: string; nonce?: string; reason?: string }) => void;
}

/**
 * The claimed authorization's remaining steps: verify, then settle or give it back. Its state
 * guards the order (settle only after a valid verify; a settlement attempt keeps its lock).
 */
export function claimedPayment(
  claim: Claim,
  fingerprint: string,
  resource: PricedResource,
  { facilitator, store, settlement, challenge, emit }: ClaimedPaymentDependencies,
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
      const step = await settlement.settleOnce(claim, pending, false);
      if (step.kind === 'settle-failed') return step;
      emit('settled', details);
      const delivered = await settlement.withReceipt(claim, step.receipt, resource);
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
