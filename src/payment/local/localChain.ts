import { defineChain, type Chain } from 'viem';

export const BASE_CHAIN_ID = 8453;
export const BASE_NETWORK = 'eip155:8453';
export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11';

// Base's chain id on a loopback anvil. Deliberately not viem's `base`: that brings OP-stack
// formatters and serializers, which a plain anvil chain does not need.
export function localBaseChain(rpcUrl: string, chainId: number = BASE_CHAIN_ID): Chain {
  return defineChain({
    id: chainId,
    name: chainId === BASE_CHAIN_ID ? 'Base (local anvil)' : `chain ${chainId} (local anvil)`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
  });
}

/** RPC calls on loopback answer in milliseconds: poll fast, give up fast. */
export const LOCAL_RPC = { timeoutMs: 10_000, pollingIntervalMs: 100 } as const;
