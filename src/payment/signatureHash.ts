import { createHash } from 'node:crypto';
import type { PaymentPayload } from '@x402/core/types';

/**
 * What a stored or parked result is bound to: the hash of the signature that paid. The
 * authorization's from and nonce are public once it is on chain, so they alone prove nothing; only
 * the holder of the signature that was settled may collect its result or have it settled again.
 * (Hex case is normalised: it doesn't change the signature.)
 */
export function signatureHashOf(payload: PaymentPayload): string {
  const { signature } = payload.payload as { signature: string };
  return createHash('sha256').update(signature.toLowerCase()).digest('hex');
}
