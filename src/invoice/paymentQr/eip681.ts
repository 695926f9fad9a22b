/**
 * EIP-681 payment request for an ERC-20 transfer: ethereum:<token>[@<chain id>]/transfer?
 * address=<recipient>&uint256=<amount in the token's smallest unit>.
 */
export interface Erc20TransferFields {
  token: string;
  chainId?: number | undefined;
  to: string;
  amount: bigint;
}

export function erc20TransferUri(fields: Erc20TransferFields): string {
  if (fields.amount < 0n) throw new Error('erc20TransferUri: negative amount');
  const chain = fields.chainId === undefined ? '' : `@${fields.chainId}`;
  return `ethereum:${fields.token}${chain}/transfer?address=${fields.to}&uint256=${fields.amount.toString()}`;
}

/** USDC on Base: Circle's contract, 6 decimals. */
export const USDC_ON_BASE = {
  token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  chainId: 8453,
  decimals: 6,
  network: 'Base',
  symbol: 'USDC',
} as const;
