import type { PaymentRequirements } from '@x402/core/types';
import type { DecodedPayment, ExactAuthorization } from './paymentPayload.js';

const same = (a: unknown, b: unknown) => String(a).toLowerCase() === String(b).toLowerCase();

/**
 * Why a payment is refused before the facilitator is asked: `reason` is an x402 error code (the
 * challenge's `error` carries only that, as the reference server does), `message` is for people
 * (the JSON body of the 402).
 */
export interface Refusal {
  reason: string;
  message: string;
}

/**
 * `accepted` and `resource` are not signed, so they prove nothing: they must equal our own offer,
 * and the signed authorization must pay our payTo exactly our amount. Returns the first mismatch,
 * or undefined. (The facilitator always receives OUR requirements.)
 */
export function offerMismatch(
  { payload, authorization }: DecodedPayment,
  offer: PaymentRequirements,
): Refusal | undefined {
  const accepted = payload.accepted;
  if (accepted.scheme !== offer.scheme)
    return {
      reason: 'unsupported_scheme',
      message: `unsupported scheme ${accepted.scheme}; this resource accepts ${offer.scheme}`,
    };
  if (accepted.network !== offer.network)
    return {
      reason: 'invalid_network',
      message: `wrong network ${accepted.network}; this resource accepts ${offer.network}`,
    };
  if (!same(accepted.asset, offer.asset))
    return { reason: 'invalid_payment_requirements', message: 'wrong asset; pay with the asset in accepts' };
  if (!same(accepted.payTo, offer.payTo) || !same(authorization.to, offer.payTo)) {
    return {
      reason: 'invalid_exact_evm_payload_recipient_mismatch',
      message: 'wrong payTo; pay the address in accepts',
    };
  }
  if (accepted.amount !== offer.amount || authorization.value !== offer.amount) {
    return {
      reason: 'invalid_exact_evm_payload_authorization_value',
      message: `wrong amount; this resource costs ${offer.amount} atomic units`,
    };
  }
  if (accepted.maxTimeoutSeconds !== offer.maxTimeoutSeconds) {
    return {
      reason: 'invalid_payment_requirements',
      message: `wrong maxTimeoutSeconds; this resource offers ${offer.maxTimeoutSeconds}`,
    };
  }
  if (JSON.stringify(accepted.extra ?? {}) !== JSON.stringify(offer.extra ?? {})) {
    return {
      reason: 'invalid_payment_requirements',
      message: 'wrong extra; echo the token domain (name, version) from accepts',
    };
  }
  return undefined;
}

/** JSON with object keys sorted, so that two equal values compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Info fields a client fills in (the reference's dynamic fields): the payment id it chose. */
const CLIENT_FIELDS: Record<string, string> = { 'payment-identifier': 'id' };

/**
 * Extensions the client echoes back must carry the info we advertised, unchanged (the reference
 * server's extension_echo_mismatch). A client may leave them out; one we didn't advertise is its own.
 */
export function extensionMismatch(
  echoed: Record<string, unknown> | undefined,
  advertised: Record<string, unknown> | undefined,
): Refusal | undefined {
  for (const [key, value] of Object.entries(echoed ?? {})) {
    if (!advertised || !Object.prototype.hasOwnProperty.call(advertised, key)) continue;
    const info = (extension: unknown) => {
      const raw = (extension as { info?: unknown } | undefined)?.info ?? extension;
      if (!raw || typeof raw !== 'object') return canonical(raw);
      const { [CLIENT_FIELDS[key] ?? '']: _clientOwned, ...rest } = raw as Record<string, unknown>;
      return canonical(rest);
    };
    if (info(value) !== info(advertised[key]))
      return {
        reason: 'extension_echo_mismatch',
        message: `the ${key} extension differs from the one this resource advertised; echo it unchanged`,
      };
  }
  return undefined;
}

/**
 * Whether the authorization can still be settled now (the facilitator wants validBefore at least
 * 6 s ahead). Checked after the offer, and only for a fresh claim: a re-send of a signature that
 * was already paid or is waiting for its settlement to be confirmed is answered from the store.
 */
export function windowMismatch(authorization: ExactAuthorization, nowSeconds: number): Refusal | undefined {
  if (BigInt(authorization.validBefore) <= BigInt(nowSeconds + 6)) {
    return {
      reason: 'invalid_exact_evm_payload_authorization_valid_before',
      message: 'the authorization has expired (validBefore is in the past); sign a new one',
    };
  }
  if (BigInt(authorization.validAfter) > BigInt(nowSeconds)) {
    return {
      reason: 'invalid_exact_evm_payload_authorization_valid_after',
      message: 'the authorization is not valid yet (validAfter is in the future)',
    };
  }
  return undefined;
}
