import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseAbi,
  type LocalAccount,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { deployedBytecode } from './contractArtifacts.js';
import { USDC_ON_BASE } from '../usdc.js';
import { LOCAL_RPC, MULTICALL3_ADDRESS, localBaseChain } from './localChain.js';

const testUsdcAbi = parseAbi([
  'function mint(address to, uint256 value)',
  'function balanceOf(address account) view returns (uint256)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
]);

export interface TestUsdc {
  address: `0x${string}`;
  balanceOf(account: `0x${string}`): Promise<bigint>;
  authorizationState(from: `0x${string}`, nonce: `0x${string}`): Promise<boolean>;
}

export interface InstallTestUsdcOptions {
  rpcUrl: string;
  /** Sends the mint transactions (anyone may mint TestUSDC). */
  minter: LocalAccount;
  grants: { to: `0x${string}`; amount: bigint }[];
  /** Where the token goes and on which chain (default: USDC's address on Base, chain id 8453). */
  at?: { address: `0x${string}`; chainId: number };
}

// setCode places runtime code without running a constructor, which TestUSDC and Multicall3 are
// written for; balances are then created by ordinary mint transactions (with Transfer events).
export async function installTestUsdc(opts: InstallTestUsdcOptions): Promise<TestUsdc> {
  const chain = localBaseChain(opts.rpcUrl, opts.at?.chainId);
  const usdcAddress = opts.at?.address ?? USDC_ON_BASE;
  const transport = http(opts.rpcUrl, { timeout: LOCAL_RPC.timeoutMs });
  const pollingInterval = LOCAL_RPC.pollingIntervalMs;
  const testClient = createTestClient({ mode: 'anvil', chain, transport });
  const publicClient = createPublicClient({ chain, transport, pollingInterval });
  const wallet = createWalletClient({ account: opts.minter, chain, transport, pollingInterval });

  await testClient.setCode({ address: usdcAddress, bytecode: deployedBytecode('TestUSDC') });
  await testClient.setCode({ address: MULTICALL3_ADDRESS, bytecode: deployedBytecode('Multicall3') });

  await mintEach(wallet, publicClient, usdcAddress, opts.grants);

  return {
    address: usdcAddress,
    balanceOf: (account) =>
      publicClient.readContract({
        address: usdcAddress,
        abi: testUsdcAbi,
        functionName: 'balanceOf',
        args: [account],
      }),
    authorizationState: (from, nonce) =>
      publicClient.readContract({
        address: usdcAddress,
        abi: testUsdcAbi,
        functionName: 'authorizationState',
        args: [from, nonce],
      }),
  };
}

/** Mints each grant of TestUSDC at `usdc` on the local chain at `rpcUrl`, sent by `minter` (anyone may mint). */
export async function grantTestUsdc(opts: {
  rpcUrl: string;
  minter: LocalAccount;
  usdc: `0x${string}`;
  grants: { to: `0x${string}`; amount: bigint }[];
}): Promise<void> {
  const chain = localBaseChain(opts.rpcUrl);
  const transport = http(opts.rpcUrl, { timeout: LOCAL_RPC.timeoutMs });
  const pollingInterval = LOCAL_RPC.pollingIntervalMs;
  const wallet = createWalletClient({ account: opts.minter, chain, transport, pollingInterval });
  await mintEach(wallet, createPublicClient({ chain, transport, pollingInterval }), opts.usdc, opts.grants);
}

async function mintEach(
  wallet: WalletClient,
  publicClient: PublicClient,
  usdc: `0x${string}`,
  grants: { to: `0x${string}`; amount: bigint }[],
): Promise<void> {
  for (const { to, amount } of grants) {
    const hash = await wallet.writeContract({
      address: usdc,
      abi: testUsdcAbi,
      functionName: 'mint',
      args: [to, amount],
      account: wallet.account!,
      chain: wallet.chain,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: LOCAL_RPC.timeoutMs });
    if (receipt.status !== 'success') throw new Error(`TestUSDC mint to ${to} reverted (${hash})`);
  }
}
