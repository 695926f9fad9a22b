import type { Lifecycle } from '../lifecycle.js';
import type { Payments } from '../payment/startPayments.js';
import { paidCaller } from './paidCall.js';
import { paymentGate, pricedResource } from './paymentGate.js';

/** What createApp needs from the payment side: the gate (and its paid call, for MCP), the offer per route and the terms for the docs. */
export function paymentDependencies(payments: Pick<Payments, 'processor' | 'terms' | 'receipts'>, lifecycle?: Lifecycle) {
  const { processor, terms, receipts } = payments;
  return {
    terms: {
      scheme: 'exact' as const,
      network: terms.network,
      asset: terms.asset,
      payTo: terms.payTo,
      ...(receipts ? { offerReceipt: { format: 'eip712' as const, signer: receipts.address, kid: receipts.kid } } : {}),
    },
    gate: paymentGate(processor, lifecycle),
    call: paidCaller(processor, lifecycle),
    offers: (route: Parameters<typeof pricedResource>[0]) => [processor.requirements(pricedResource(route))],
  };
}
