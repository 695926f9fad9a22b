import { startAnvil } from './anvil.js';
import {
  BUYER_INDEXES,
  DEV_ACCOUNT_COUNT,
  GAS_PAYER_INDEX,
  PAYEE_INDEX,
  devAccount,
  devKey,
  type DevKey,
} from './devAccounts.js';
import { serveFacilitator } from './facilitatorServer.js';
import { BASE_CHAIN_ID } from './localChain.js';
import { createLocalFacilitator } from './localFacilitator.js';
import { installTestUsdc } from './testUsdc.js';

/** 1000 USDC (6 decimals) per buyer: 50,000 invoices at 0.02 USD. */
export const BUYER_GRANT = 1_000_000_000n;

export interface LocalPaymentNetwork {
  rpcUrl: string;
  facilitatorUrl: string;
  chainId: 8453;
  usdc: `0x${string}`;
  /** Dev account 0. Starts with 0 USDC. */
  payTo: `0x${string}`;
  /** Dev accounts 1..9, each holding BUYER_GRANT test USDC. */
  buyers: DevKey[];
  balanceOf(address: `0x${string}`): Promise<bigint>;
  authorizationState(from: `0x${string}`, nonce: `0x${string}`): Promise<boolean>;
  close(): Promise<void>;
}

export interface LocalPaymentNetworkOptions {
  host?: '127.0.0.1';
  /** Where the facilitator listens; defaults to `host`. Only a container shared over a network sets 0.0.0.0. */
  facilitatorHost?: string;
  /** 0 or absent: a free port. */
  chainPort?: number;
  /** 0 or absent: a free port. */
  facilitatorPort?: number;
  log?: (line: string) => void;
}

// A real chain (anvil, chain id 8453, TestUSDC at the real USDC address) and a real facilitator
// (x402Facilitator + ExactEvmScheme over HTTP), both on loopback only. Block timestamps follow the
// wall clock (anvil's default; several blocks in one second share it), which is what the client's
// validBefore = now + maxTimeoutSeconds and the facilitator's Date.now() checks assume: nothing here
// warps time.
export async function startLocalPaymentNetwork(opts: LocalPaymentNetworkOptions = {}): Promise<LocalPaymentNetwork> {
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log;
  const gasPayer = devAccount(GAS_PAYER_INDEX);
  const payTo = devAccount(PAYEE_INDEX).address;
  const buyers = BUYER_INDEXES.map(devKey);

  const anvil = await startAnvil({
    host,
    port: opts.chainPort ?? 0,
    chainId: BASE_CHAIN_ID,
    accounts: DEV_ACCOUNT_COUNT,
    log,
  });
  const closers: (() => Promise<void>)[] = [anvil.close];
  const closeAll = async () => {
    for (const close of closers.reverse().splice(0)) await close();
  };
  try {
    const usdc = await installTestUsdc({
      rpcUrl: anvil.rpcUrl,
      minter: gasPayer,
      grants: buyers.map((b) => ({ to: b.address, amount: BUYER_GRANT })),
    });
    const facilitator = createLocalFacilitator({ rpcUrl: anvil.rpcUrl, gasPayer });
    const server = await serveFacilitator(facilitator, {
      host: opts.facilitatorHost ?? host,
      port: opts.facilitatorPort ?? 0,
      log,
    });
    closers.push(server.close);
    log?.(`local payment network: facilitator ${server.url} (gas payer ${gasPayer.address}), payTo ${payTo}`);

    let closing: Promise<void> | undefined;
    return {
      rpcUrl: anvil.rpcUrl,
      facilitatorUrl: server.url,
      chainId: BASE_CHAIN_ID,
      usdc: usdc.address,
      payTo,
      buyers,
      balanceOf: usdc.balanceOf,
      authorizationState: usdc.authorizationState,
      close: () => (closing ??= closeAll()),
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
