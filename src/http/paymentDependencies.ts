import type { Lifecycle } from '../lifecycle.js';
import type { PricedOperation } from '../operations/operation.js';
import { paidCaller } from '../operations/paidCall.js';
import { withPaymentExtensions } from '../operations/paymentExtensions.js';
import type { SignInWithXOptions } from '../operations/signInWithXCall.js';
import type { Payments } from '../payment/startPayments.js';
import { pricedResource } from './offerResource.js';

/** What createApp needs from the payment side: the paid call, the offer per operation and the terms for the docs. */
export function paymentDependencies(
  payments: Pick<Payments, 'processor' | 'terms' | 'receipts' | 'signIn' | 'trial'>,
  lifecycle?: Lifecycle,
  options: { onSignInEvent?: SignInWithXOptions['onEvent'] } = {},
) {
  const { processor, terms, receipts } = payments;
  return {
    terms: {
      scheme: 'exact' as const,
      network: terms.network,
      asset: terms.asset,
      payTo: terms.payTo,
      ...(receipts ? { offerReceipt: { format: 'eip712' as const, signer: receipts.address, kid: receipts.kid } } : {}),
    },
    call: withPaymentExtensions(paidCaller(processor, lifecycle), payments, lifecycle, options),
    /** Paid answers end their connection while draining (router.ts). */
    lifecycle,
    offers: (operation: PricedOperation) => [
      processor.requirements(pricedResource(operation)),
      // The trial network's offer, as every 402 lists it after the main one (trialNetworkCall.ts).
      ...(payments.trial ? [payments.trial.processor.requirements(pricedResource(operation))] : []),
    ],
  };
}
