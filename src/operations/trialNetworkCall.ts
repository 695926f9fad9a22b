import type { PaymentRequired } from '../payment/compactChallenge.js';
import type { PricedResource } from '../payment/offer.js';
import type { PaymentProcessor } from '../payment/paymentProcessor.js';
import { TRIAL_NETWORK } from '../payment/trial/trialNetwork.js';
import type { PaidCall, PaidOutcome } from './paidCall.js';

export interface TrialNetworkOptions {
  /** The paid call of the trial network's processor (its own terms and facilitator, the shared store). */
  call: PaidCall;
  /** The trial network's offer for a resource, appended to every 402's accepts. */
  requirements(resource: PricedResource): PaymentRequirements;
  /** The main processor's challenge (both networks' offers, each signed when receipts are on), for the 402 that refuses a trial payment. */
  mainChallenge(resource: PricedResource, error: string): Promise<PaymentRequired>;
}

type Challenge = Extract<PaidOutcome, { kind: 'payment-required' }>;
type PaymentRequirements = ReturnType<PaymentProcessor['requirements']>;

/**
 * The trial network beside the main one (TRIAL_NETWORK=on): every 402 offers both (the main
 * network first, so a client that takes `accepts[0]` pays real money unless it chooses the trial);
 * a payment whose `accepted` names the trial network goes to the trial processor, and its work is
 * a specimen. Without this, a trial payment reaches the main processor, whose offer check refuses
 * the network (invalid_network, a 402) before verify, so nothing is ever settled with it.
 */
export function withTrialNetwork(mainCall: PaidCall, trial: TrialNetworkOptions): PaidCall {
  return async function mainOrTrial(resource, payment, fingerprint, work, hooks) {
    const onTrial = payment?.payload.accepted.network === TRIAL_NETWORK;
    const outcome = onTrial
      ? await trial.call(resource, payment, fingerprint, (signal) => work(signal, { specimen: true }), hooks)
      : await mainCall(resource, payment, fingerprint, work, hooks);
    if (outcome.kind !== 'payment-required') return outcome;
    return onTrial
      ? { ...outcome, paymentRequired: await trial.mainChallenge(resource, outcome.paymentRequired.error ?? '') }
      : withTrialOffer(outcome, trial, resource);
  };
}

/**
 * The challenge with the trial network's offer after the main one(s). The main processor lists it
 * already (payment/startPayments.ts: its offer is signed with the main one's); a challenge built
 * without it gets it appended, unsigned.
 */
export const withTrialAccepts = (paymentRequired: PaymentRequired, trialOffer: PaymentRequirements): PaymentRequired =>
  paymentRequired.accepts.some((accept) => accept.network === trialOffer.network)
    ? paymentRequired
    : { ...paymentRequired, accepts: [...paymentRequired.accepts, trialOffer] };

const withTrialOffer = (outcome: Challenge, trial: TrialNetworkOptions, resource: PricedResource): Challenge => ({
  ...outcome,
  paymentRequired: withTrialAccepts(outcome.paymentRequired, trial.requirements(resource)),
});
