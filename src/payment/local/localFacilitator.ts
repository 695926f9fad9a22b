import { x402Facilitator } from '@x402/core/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { createWalletClient, http, publicActions, type Abi, type LocalAccount, type TypedDataDefinition } from 'viem';
import { BASE_NETWORK, LOCAL_RPC, localBaseChain } from './localChain.js';

export interface LocalFacilitatorOptions {
  rpcUrl: string;
  /** Signs and pays gas for settlement transactions. */
  gasPayer: LocalAccount;
  /** The chain it settles on (default: chain id 8453 as eip155:8453; the trial chain passes its own). */
  chain?: { id: number; network: `${string}:${string}` };
}

// The same x402Facilitator + ExactEvmScheme a real facilitator runs, against the local chain.
// Only the v2 "exact" scheme on its one network (eip155:8453 unless told) is registered.
export function createLocalFacilitator(opts: LocalFacilitatorOptions): x402Facilitator {
  const wallet = createWalletClient({
    account: opts.gasPayer,
    chain: localBaseChain(opts.rpcUrl, opts.chain?.id),
    transport: http(opts.rpcUrl, { timeout: LOCAL_RPC.timeoutMs }),
    pollingInterval: LOCAL_RPC.pollingIntervalMs,
  }).extend(publicActions);

  // One gas payer means one nonce sequence. viem reads the pending nonce per send, so two
  // concurrent settlements could pick the same one: send one at a time (anvil mines each send
  // immediately, so the queue is short). Receipt waits stay concurrent.
  const serially = serialQueue();

  const signer = toFacilitatorEvmSigner(
    {
      address: opts.gasPayer.address,
      getCode: (args) => wallet.getCode(args),
      readContract: (args) => wallet.readContract({ ...args, abi: args.abi as Abi, args: args.args ?? [] }),
      verifyTypedData: (args) => wallet.verifyTypedData(args as TypedDataDefinition & typeof args),
      writeContract: (args) => serially(() => wallet.writeContract({ ...args, abi: args.abi as Abi })),
      sendTransaction: (args) => serially(() => wallet.sendTransaction(args)),
      waitForTransactionReceipt: (args) => wallet.waitForTransactionReceipt(args),
    },
    { confirmationTimeoutMs: 30_000 },
  );

  return new x402Facilitator().register(opts.chain?.network ?? BASE_NETWORK, new ExactEvmScheme(signer));
}

function serialQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}
