import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import type { Checked } from './iban.js';

/**
 * EIP-55: a hex letter is upper case exactly when the matching nibble of keccak256(lower-case
 * hex address) is 8 or more.
 */
export function toChecksumAddress(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++)
    out += Number.parseInt(hash[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  return out;
}

/**
 * An EVM address the buyer's wallet will send money to, so only the EIP-55 checksummed form is
 * taken: a mixed-case address whose checksum fails is a typo. All lower-case (or all upper-case)
 * addresses carry no checksum at all, so a typo in them cannot be seen: refused too, with the
 * checksummed form to send instead being the client's to compute (we never "fix" an address).
 * The zero address is refused: what is sent there is burnt.
 */
export function checkEvmAddress(input: string): Checked {
  if (!/^0x[0-9a-fA-F]{40}$/.test(input)) return { ok: false, reason: 'must be an EVM address: 0x and 40 hex digits' };
  if (/^0x0{40}$/.test(input)) return { ok: false, reason: 'must not be the zero address' };
  if (toChecksumAddress(input) !== input) {
    const hasLetters = /[a-fA-F]/.test(input.slice(2));
    const uniformCase =
      input.slice(2) === input.slice(2).toLowerCase() || input.slice(2) === input.slice(2).toUpperCase();
    return {
      ok: false,
      reason:
        hasLetters && uniformCase
          ? 'must be EIP-55 checksummed (mixed case); an all lower- or upper-case address carries no checksum, so a typo in it cannot be caught'
          : 'fails its EIP-55 checksum (the upper/lower case of its letters): check for a typo',
    };
  }
  return { ok: true, value: input };
}
