import { privateKeyToAddress } from 'viem/accounts';

/** A 32-byte secp256k1 private key as 0x-prefixed hex. */
const PRIVATE_KEY_PATTERN = /^0x[0-9a-fA-F]{64}$/;

/** The address of a receipt signing key, or undefined when it is no valid secp256k1 key (0, ≥ the curve order). */
export function receiptSignerAddress(privateKey: string): `0x${string}` | undefined {
  if (!PRIVATE_KEY_PATTERN.test(privateKey)) return undefined;
  try {
    return privateKeyToAddress(privateKey as `0x${string}`);
  } catch {
    return undefined;
  }
}
