import { pbkdf2Sync } from 'node:crypto';
import { toHex } from 'viem';
import { HDKey, hdKeyToAccount, type HDAccount } from 'viem/accounts';

// Anvil's default mnemonic: the well-known, publicly known dev accounts. Never real money.
const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

// Roles by derivation index. The gas payer is an account of its own rather than the payee, as with
// a real facilitator (a third party): the seller's address never sends transactions, and the
// facilitator's nonce sequence is not shared with anything a test might do as the seller.
export const PAYEE_INDEX = 0;
export const BUYER_INDEXES = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
export const GAS_PAYER_INDEX = 10;
/** Signs offers and receipts in local payment mode (receipts.ts); needs no ether. */
export const RECEIPT_SIGNER_INDEX = 11;
/** Passed to `anvil --accounts` so every role above starts with ether for gas. */
export const DEV_ACCOUNT_COUNT = GAS_PAYER_INDEX + 1;

export interface DevKey {
  address: `0x${string}`;
  privateKey: `0x${string}`;
}

// The mnemonic's BIP-39 seed (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic") by Node's crypto,
// once a process: viem's mnemonicToAccount derives it in JavaScript on every call, 50-70 ms of CPU
// each, and a local payment network's start took eleven (1 s of its 1.1 s of CPU).
let root: HDKey | undefined;
const rootKey = () =>
  (root ??= HDKey.fromMasterSeed(pbkdf2Sync(ANVIL_MNEMONIC.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512')));

export function devAccount(index: number): HDAccount {
  return hdKeyToAccount(rootKey(), { addressIndex: index });
}

export function devKey(index: number): DevKey {
  const account = devAccount(index);
  const privateKey = account.getHdKey().privateKey;
  if (!privateKey) throw new Error(`no private key derived for dev account ${index}`);
  return { address: account.address, privateKey: toHex(privateKey) };
}
