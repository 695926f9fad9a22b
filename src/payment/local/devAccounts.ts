import { toHex } from 'viem';
import { mnemonicToAccount, type HDAccount } from 'viem/accounts';

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

export function devAccount(index: number): HDAccount {
  return mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
}

export function devKey(index: number): DevKey {
  const account = devAccount(index);
  const privateKey = account.getHdKey().privateKey;
  if (!privateKey) throw new Error(`no private key derived for dev account ${index}`);
  return { address: account.address, privateKey: toHex(privateKey) };
}
