import type { Lifecycle } from '../lifecycle.js';
import type { Payments } from '../payment/startPayments.js';
import { paidCaller, type PaidCall } from './paidCall.js';
import { withSignInWithX, type SignInWithXOptions } from './signInWithXCall.js';
import { withTrialNetwork } from './trialNetworkCall.js';

/**
 * The paid call with what is configured around it: the trial network (a second processor, its
 * payments' work marked specimen), then sign-in-with-x outermost, so that its 402 offers sign-in
 * on every network the 402 offers and a re-download skips payment altogether.
 */
export function withPaymentExtensions(
  paidCall: PaidCall,
  payments: Pick<Payments, 'processor' | 'terms' | 'signIn' | 'trial'>,
  lifecycle: Lifecycle | undefined,
  options: { baseUrl?: string; onSignInEvent?: SignInWithXOptions['onEvent'] },
): PaidCall {
  const { trial, signIn, processor } = payments;
  const withTrial = trial
    ? withTrialNetwork(paidCall, {
        call: paidCaller(trial.processor, lifecycle),
        requirements: (resource) => trial.processor.requirements(resource),
        mainRequirements: (resource) => processor.requirements(resource),
      })
    : paidCall;
  if (!signIn) return withTrial;
  if (!options.baseUrl) throw new Error('sign-in-with-x needs the public base URL its messages are bound to');
  return withSignInWithX(withTrial, {
    entitlements: signIn.entitlements,
    entitlementMs: signIn.entitlementMs,
    baseUrl: options.baseUrl,
    networks: trial ? [payments.terms.network, trial.terms.network] : [payments.terms.network],
    ...(options.onSignInEvent ? { onEvent: options.onSignInEvent } : {}),
  });
}
