// The payment world's pieces (a local chain and facilitator, a Chromium renderer) as the test files
// of one process share them. Started, each, took a file 1.5-2.5 s of CPU (anvil, TestUSDC and its
// grants, Chromium), again for every e2e file. In a group (several files in one process, one after
// another: scripts/testGroups.mjs, whose entry sets AT_PROCESS_END), the first file that needs a
// piece starts it and the next ones reuse it; the group entry closes it after its last file. A file
// alone (its own process, or no group entry) starts its own and closes it after its tests, as before.
import { createTestClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import type { DevKey } from '../../src/payment/local/devAccounts.js';
import { LOCAL_RPC, localBaseChain } from '../../src/payment/local/localChain.js';
import {
  BUYER_GRANT,
  startLocalPaymentNetwork,
  type LocalPaymentNetwork,
} from '../../src/payment/local/localPaymentNetwork.js';
import { grantTestUsdc } from '../../src/payment/local/testUsdc.js';
import type { Renderer } from '../../src/render/renderer.js';
import { startRenderer } from '../../src/settings.js';
import { AT_PROCESS_END_KEY } from '../../scripts/testGroups.mjs';

/**
 * Where a group's entry (scripts/testGroups.mjs) takes what is to be closed once its last file is
 * done: a function on globalThis, as the entry and the files' bundles share no module.
 */
const AT_PROCESS_END = Symbol.for(AT_PROCESS_END_KEY);
type AtProcessEnd = (close: () => Promise<unknown>) => void;
const atProcessEnd = () => (globalThis as { [AT_PROCESS_END]?: AtProcessEnd })[AT_PROCESS_END];

/** The chain as a file sees it: its own buyers and payee, and no close (the world's owner closes it). */
export type FileNet = Omit<LocalPaymentNetwork, 'close'>;

/** A piece of the world for one file: `first` when no file used it before (a fresh chain). */
interface Lease<T> {
  value: T;
  first: boolean;
  release(): Promise<void>;
}

/** One piece of the world, started by the first file that asks, shared when in a group. */
function sharedPiece<T extends { close(): Promise<unknown> }>(start: () => Promise<T>) {
  let started: Promise<T> | undefined;
  let leases = 0;
  return async (): Promise<Lease<T>> => {
    const register = atProcessEnd();
    if (!register) {
      const value = await start();
      return { value, first: true, release: async () => void (await value.close()) };
    }
    if (!started) {
      const starting = start();
      started = starting;
      // A piece that failed to start is started anew by the next file, which then reports its own failure.
      starting.then(
        (value) => register(() => value.close()),
        () => {
          if (started === starting) started = undefined;
        },
      );
    }
    const value = await started;
    leases += 1;
    return { value, first: leases === 1, release: async () => undefined };
  };
}

const leaseNet = sharedPiece(() => startLocalPaymentNetwork({}));
const leaseRenderer = sharedPiece(() =>
  startRenderer(loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', RENDER_POOL_SIZE: '2' }), createLogger('silent')),
);

/**
 * The payment world of one test file: the chain and facilitator, and the renderer unless
 * `renderer: false` (a file that brings its own). A file that is not the chain's first gets buyers
 * and a payee nobody used before (funded as the chain's own: ether for gas, BUYER_GRANT test USDC),
 * so that what another file did on the chain (a payment, a buyer's balance emptied on purpose)
 * changes nothing it reads: each balance and authorization it checks is its own.
 */
export async function fileWorld(options: { renderer?: boolean } = {}) {
  const releases: (() => Promise<void>)[] = [];
  const release = async () => {
    for (const next of releases.reverse().splice(0)) await next();
  };
  try {
    const net = await leaseNet();
    releases.push(net.release);
    const renderer = options.renderer === false ? undefined : await leaseRenderer();
    if (renderer) releases.push(renderer.release);
    const { close: _close, ...chain } = net.value;
    const fileNet: FileNet = net.first ? chain : { ...chain, ...(await freshAccounts(chain)) };
    return { net: fileNet, renderer: renderer?.value as Renderer, release };
  } catch (error) {
    await release();
    throw error;
  }
}

/** What anvil gives each of its dev accounts: 10,000 ether. */
const DEV_ETHER = 10_000n * 10n ** 18n;

/**
 * As many new buyers as the chain has, each with ether and BUYER_GRANT test USDC (minted by a new
 * account of its own: never the facilitator's gas payer, whose nonces a file's settlements use,
 * through grantTestUsdc as the network's own grants), and a new payee holding nothing.
 */
async function freshAccounts(net: FileNet): Promise<Pick<FileNet, 'buyers' | 'payTo'>> {
  const buyers: DevKey[] = net.buyers.map(() => {
    const privateKey = generatePrivateKey();
    return { privateKey, address: privateKeyToAccount(privateKey).address };
  });
  const minter = privateKeyToAccount(generatePrivateKey());
  const transport = http(net.rpcUrl, { timeout: LOCAL_RPC.timeoutMs });
  const testClient = createTestClient({ mode: 'anvil', chain: localBaseChain(net.rpcUrl), transport });
  await Promise.all(
    [minter.address, ...buyers.map((b) => b.address)].map((address) =>
      testClient.setBalance({ address, value: DEV_ETHER }),
    ),
  );
  const grants = buyers.map((buyer) => ({ to: buyer.address, amount: BUYER_GRANT }));
  await grantTestUsdc({ rpcUrl: net.rpcUrl, minter, usdc: net.usdc, grants });
  return { buyers, payTo: privateKeyToAccount(generatePrivateKey()).address };
}
