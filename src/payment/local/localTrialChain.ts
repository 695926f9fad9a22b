import { TRIAL_CHAIN_ID, TRIAL_NETWORK, USDC_ON_BASE_SEPOLIA } from '../trial/trialNetwork.js';
import { startAnvil } from './anvil.js';
import { BUYER_INDEXES, DEV_ACCOUNT_COUNT, GAS_PAYER_INDEX, devAccount } from './devAccounts.js';
import { serveFacilitator } from './facilitatorServer.js';
import { createLocalFacilitator } from './localFacilitator.js';
import { BUYER_GRANT } from './localPaymentNetwork.js';
import { installTestUsdc } from './testUsdc.js';

export interface LocalTrialChain {
  rpcUrl: string;
  /** Its own facilitator: the trial network's TRIAL_FACILITATOR_URL in local payment mode. */
  facilitatorUrl: string;
  chainId: typeof TRIAL_CHAIN_ID;
  usdc: `0x${string}`;
  balanceOf(address: `0x${string}`): Promise<bigint>;
  authorizationState(from: `0x${string}`, nonce: `0x${string}`): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The trial network on loopback, for local payment mode with TRIAL_NETWORK=on and the e2e tier:
 * a second anvil with Base Sepolia's chain id (84532), the test USDC at Base Sepolia's USDC
 * address (EIP-712 domain "USDC"/"2", contracts/TestUSDC.sol), the same dev accounts holding the
 * same grant, and its own facilitator. The same roles as the main local chain (devAccounts.ts).
 */
export async function startLocalTrialChain(
  opts: {
    chainPort?: number;
    facilitatorPort?: number;
    log?: (line: string) => void;
    /** Who holds the grant (default the dev buyers): a test's own buyers on a main chain it shares. */
    buyers?: `0x${string}`[];
  } = {},
): Promise<LocalTrialChain> {
  const host = '127.0.0.1';
  const gasPayer = devAccount(GAS_PAYER_INDEX);
  const anvil = await startAnvil({
    host,
    port: opts.chainPort ?? 0,
    chainId: TRIAL_CHAIN_ID,
    accounts: DEV_ACCOUNT_COUNT,
    ...(opts.log ? { log: opts.log } : {}),
  });
  try {
    const usdc = await installTestUsdc({
      rpcUrl: anvil.rpcUrl,
      minter: gasPayer,
      grants: (opts.buyers ?? BUYER_INDEXES.map((index) => devAccount(index).address)).map((to) => ({
        to,
        amount: BUYER_GRANT,
      })),
      at: { address: USDC_ON_BASE_SEPOLIA, chainId: TRIAL_CHAIN_ID },
    });
    const facilitator = createLocalFacilitator({
      rpcUrl: anvil.rpcUrl,
      gasPayer,
      chain: { id: TRIAL_CHAIN_ID, network: TRIAL_NETWORK },
    });
    const server = await serveFacilitator(facilitator, {
      host,
      port: opts.facilitatorPort ?? 0,
      ...(opts.log ? { log: opts.log } : {}),
    });
    opts.log?.(`local trial chain ${TRIAL_NETWORK}: ${anvil.rpcUrl}, facilitator ${server.url}`);
    let closing: Promise<void> | undefined;
    return {
      rpcUrl: anvil.rpcUrl,
      facilitatorUrl: server.url,
      chainId: TRIAL_CHAIN_ID,
      usdc: usdc.address,
      balanceOf: usdc.balanceOf,
      authorizationState: usdc.authorizationState,
      close: () =>
        (closing ??= (async () => {
          await server.close();
          await anvil.close();
        })()),
    };
  } catch (error) {
    await anvil.close();
    throw error;
  }
}
