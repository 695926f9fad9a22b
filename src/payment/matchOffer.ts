import type { PaymentRequirements } from '@x402/core/types';
import type { DecodedPayment, ExactAuthorization } from './paymentHeader.js';

const same = (a: unknown, b: unknown) => String(a).toLowerCase() === String(b).toLowerCase();

/**
 * `accepted` and `resource` are not signed, so they prove nothing: they must equal our own offer,
 * and the signed authorization must pay our payTo exactly our amount. Returns the reason of the
 * first mismatch, or undefined. (The facilitator always receives OUR requirements.)
 */
export function offerMismatch({ payload, authorization }: DecodedPayment, offer: PaymentRequirements): string | undefined {
  const accepted = payload.accepted;
  if (accepted.scheme !== offer.scheme) return `unsupported scheme ${accepted.scheme}; this resource accepts ${offer.scheme}`;
  if (accepted.network !== offer.network) return `wrong network ${accepted.network}; this resource accepts ${offer.network}`;
  if (!same(accepted.asset, offer.asset)) return 'wrong asset; pay with the asset in accepts';
  if (!same(accepted.payTo, offer.payTo) || !same(authorization.to, offer.payTo)) return 'wrong payTo; pay the address in accepts';
  if (accepted.amount !== offer.amount || authorization.value !== offer.amount) return `wrong amount; this resource costs ${offer.amount} atomic units`;
  return undefined;
}

/**
 * Whether the authorization can still be settled now (the facilitator wants validBefore at least
 * 6 s ahead). Checked after the offer, and only for a fresh claim: a re-send of a signature that
 * was already paid or is waiting for its settlement to be confirmed is answered from the store.
 */
export function windowMismatch(authorization: ExactAuthorization, nowSeconds: number): string | undefined {
  if (BigInt(authorization.validBefore) <= BigInt(nowSeconds + 6)) return 'the authorization has expired (validBefore is in the past); sign a new one';
  if (BigInt(authorization.validAfter) > BigInt(nowSeconds)) return 'the authorization is not valid yet (validAfter is in the future)';
  return undefined;
}
