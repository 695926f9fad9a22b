import type { Lifecycle } from '../lifecycle.js';
import type { PaymentRequired } from '../payment/compactChallenge.js';
import type { PricedResource } from '../payment/offer.js';
import type { PaymentProcessor } from '../payment/paymentProcessor.js';
import { withSignInOffer } from '../payment/signInWithX/signInChallenge.js';
import type { Payments } from '../payment/startPayments.js';
import { paidCaller, type PaidCall } from './paidCall.js';
import { withSignInWithX, type SignInWithXOptions } from './signInWithXCall.js';
import { withTrialAccepts, withTrialNetwork } from './trialNetworkCall.js';

type Extensions = Pick<Payments, 'processor' | 'terms' | 'signIn' | 'trial'>;

/**
 * The paid call with what is configured around it: the trial network (a second processor, its
 * payments' work marked specimen), then sign-in-with-x outermost, so that its 402 offers sign-in
 * on every network the 402 offers and a re-download skips payment altogether.
 */
export function withPaymentExtensions(
  paidCall: PaidCall,
  payments: Extensions,
  lifecycle: Lifecycle | undefined,
  options: { onSignInEvent?: SignInWithXOptions['onEvent'] } = {},
): PaidCall {
  const { trial, signIn, processor } = payments;
  const withTrial = trial
    ? withTrialNetwork(paidCall, {
        call: paidCaller(trial.processor, lifecycle),
        requirements: (resource) => trial.processor.requirements(resource),
        mainChallenge: (resource, error) => processor.challenge(resource, error),
      })
    : paidCall;
  if (!signIn) return withTrial;
  return withSignInWithX(withTrial, {
    entitlements: signIn.entitlements,
    entitlementMs: signIn.entitlementMs,
    baseUrl: signIn.baseUrl,
    networks: trial ? [payments.terms.network, trial.terms.network] : [payments.terms.network],
    ...(options.onSignInEvent ? { onEvent: options.onSignInEvent } : {}),
  });
}

/**
 * The main processor's challenge as the extensions above send it (the trial offer appended, a
 * sign-in offer added), for the start-up check that every 402 fits its header budget
 * (http/challengeBudget.ts): it measures what is sent, not the bare processor's challenge.
 */
export function extendedChallenges(payments: Extensions): Pick<PaymentProcessor, 'challenge'> {
  const { trial, signIn, processor } = payments;
  return {
    async challenge(resource: PricedResource, error: string): Promise<PaymentRequired> {
      let paymentRequired = await processor.challenge(resource, error);
      if (trial) paymentRequired = withTrialAccepts(paymentRequired, trial.processor.requirements(resource));
      return signIn ? withSignInOffer(paymentRequired, { now: Date.now(), baseUrl: signIn.baseUrl }) : paymentRequired;
    },
  };
}
