import type { Lifecycle } from '../lifecycle.js';
import type { PricedOperation } from '../operations/operation.js';
import { paidCaller } from '../operations/paidCall.js';
import type { Payments } from '../payment/startPayments.js';
import { pricedResource } from './offerResource.js';

/** What createApp needs from the payment side: the paid call, the offer per operation and the terms for the docs. */
export function paymentDependencies(
  payments: Pick<Payments, 'processor' | 'terms' | 'receipts'>,
  lifecycle?: Lifecycle,
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
    call: paidCaller(processor, lifecycle),
    /** Paid answers end their connection while draining (router.ts). */
    lifecycle,
    offers: (operation: PricedOperation) => [processor.requirements(pricedResource(operation))],
  };
}
