import type { PaymentRequirements } from '@x402/core/types';
import { hashTypedData, isAddressEqual, type Hex } from 'viem';
import type { ExactAuthorization } from './paymentPayload.js';
import { recoverSigner } from './ecdsaThread.js';

/** EIP-3009's signed struct, as USDC (FiatToken v2) checks it. */
const TRANSFER_WITH_AUTHORIZATION = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** r ‖ s ‖ v: 65 bytes, 130 hex digits. */
const PLAIN_ECDSA = /^0x[0-9a-fA-F]{130}$/;

/** Whether a signature is a plain 65-byte ECDSA one, which signerMismatch checks locally. */
export const isPlainEcdsa = (signature: string): boolean => PLAIN_ECDSA.test(signature);

/**
 * Whether a plain 65-byte ECDSA signature was made by `authorization.from` over our offer's
 * EIP-712 domain: a forgery is refused here, without a facilitator call (a facilitator meters and
 * rate-limits /verify). Returns the refusal reason, or undefined when the signer matches or the
 * signature can't be checked locally: ERC-1271 / ERC-6492 smart-account signatures (any other
 * length) need the chain, so the facilitator judges them. The hash is taken here, the key recovered
 * off the event loop (ecdsaThread.ts).
 */
export async function signerMismatch(
  authorization: ExactAuthorization,
  signature: string,
  offer: PaymentRequirements,
): Promise<'invalid_signature' | undefined> {
  if (!PLAIN_ECDSA.test(signature)) return undefined;
  const extra = offer.extra as { name: string; version: string };
  try {
    const hash = hashTypedData({
      domain: {
        name: extra.name,
        version: extra.version,
        chainId: chainIdOf(offer.network),
        verifyingContract: offer.asset as Hex,
      },
      types: TRANSFER_WITH_AUTHORIZATION,
      primaryType: 'TransferWithAuthorization',
      message: {
        from: authorization.from as Hex,
        to: authorization.to as Hex,
        value: BigInt(authorization.value),
        validAfter: BigInt(authorization.validAfter),
        validBefore: BigInt(authorization.validBefore),
        nonce: authorization.nonce as Hex,
      },
    });
    const signer = await recoverSigner(hash, signature as Hex);
    return isAddressEqual(signer, authorization.from as Hex) ? undefined : 'invalid_signature';
  } catch {
    // Not a point on the curve, a bad recovery byte, a high s: no EOA signed this.
    return 'invalid_signature';
  }
}

/** `eip155:8453` → 8453 (our own offer's network, so always CAIP-2 eip155). */
const chainIdOf = (network: string) => Number(network.split(':')[1]);
