import type { PaymentRequirements } from '@x402/core/types';
import type { PricedResource } from '../payment/offer.js';
import { encodeChallenge } from '../payment/signInWithX/signInChallenge.js';
import { TRIAL_NETWORK } from '../payment/trial/trialNetwork.js';
import type { PaidCall, PaidOutcome } from './paidCall.js';

export interface TrialNetworkOptions {
  /** The paid call of the trial network's processor (its own terms and facilitator, the shared store). */
  call: PaidCall;
  /** The trial network's offer for a resource, appended to every 402's accepts. */
  requirements(resource: PricedResource): PaymentRequirements;
  /** The main network's offer, put first in the 402 that refuses a trial payment. */
  mainRequirements(resource: PricedResource): PaymentRequirements;
}

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
      ? withMainOffer(outcome, trial.mainRequirements(resource))
      : withTrialOffer(outcome, trial.requirements(resource));
  };
}

function withTrialOffer(
  outcome: Extract<PaidOutcome, { kind: 'payment-required' }>,
  trialOffer: PaymentRequirements,
): PaidOutcome {
  const paymentRequired = { ...outcome.paymentRequired, accepts: [...outcome.paymentRequired.accepts, trialOffer] };
  return { ...outcome, paymentRequired, header: encodeChallenge(paymentRequired) };
}

/** A refused trial payment's 402 still offers both networks, the main one first. */
function withMainOffer(
  outcome: Extract<PaidOutcome, { kind: 'payment-required' }>,
  mainOffer: PaymentRequirements,
): PaidOutcome {
  const paymentRequired = { ...outcome.paymentRequired, accepts: [mainOffer, ...outcome.paymentRequired.accepts] };
  return { ...outcome, paymentRequired, header: encodeChallenge(paymentRequired) };
}
