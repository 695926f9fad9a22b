/**
 * Shared payment state: a single-flight claim per authorization (network, asset, from, nonce) and
 * the paid result, kept until the authorization expires. One small interface so an in-memory
 * store (one instance) and a Redis store (many instances) give the same guarantees.
 */
export interface PaidResult {
  /** Which request body was paid for: a re-sent signature with another body is refused. */
  fingerprint: string;
  contentType: string;
  body: Buffer;
  /** The PAYMENT-RESPONSE header value (base64 settlement receipt). */
  receipt: string;
}

export type ClaimOutcome = { kind: 'claimed' } | { kind: 'busy' } | { kind: 'done'; result: PaidResult };

export interface PaymentStore {
  /** Take the authorization for processing until `expiresAtMs`, unless someone holds it or it is paid. */
  claim(key: string, expiresAtMs: number): Promise<ClaimOutcome>;
  /** Nothing was settled: let the same authorization be tried again. */
  release(key: string): Promise<void>;
  /** Settled: keep the result for re-sends of the same signature until `expiresAtMs`. */
  complete(key: string, result: PaidResult, expiresAtMs: number): Promise<void>;
  close(): Promise<void>;
}

export function authorizationKey(network: string, asset: string, from: string, nonce: string): string {
  return `x402:${network}:${asset.toLowerCase()}:${from.toLowerCase()}:${nonce.toLowerCase()}`;
}
