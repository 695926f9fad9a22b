// Shared by the reliability suite. Each property prints one figure line,
// `[reliability] <n> <name>: ...`, and asserts its target. The short variants run with `npm test`;
// RELIABILITY_LONG=1 (`npm run reliability`) runs the long ones.
import assert from 'node:assert/strict';
import type { PaymentPayload } from '@x402/core/types';
import { createPublicClient, http, parseAbiItem } from 'viem';
import type { LocalPaymentNetwork } from '../../src/payment/local/localPaymentNetwork.js';
import { authorizationOf } from '../support/x402Buyer.js';

export const LONG = process.env.RELIABILITY_LONG === '1';

/** The short value with `npm test`, the long one with RELIABILITY_LONG=1. */
export const variant = <T>(short: T, long: T): T => (LONG ? long : short);

export function figure(property: string, text: string): void {
  console.log(`[reliability] ${property}: ${text}${LONG ? ' (long)' : ' (short)'}`);
}

/**
 * A wall-clock target: asserted in the long run only (`npm run reliability`, machines to itself).
 * Under `npm test` the figure line still shows the value, but two shared cores must not fail it.
 */
export function timingTarget(met: boolean, message: string): void {
  if (LONG) assert.ok(met, message);
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const ms = (value: number) => `${Math.round(value)} ms`;

export const PRICE = 20000n;

export { challengeOf, signerFor, type Signed } from '../support/x402Buyer.js';

export function decodeNonce(header: string): { from: `0x${string}`; nonce: `0x${string}` } {
  return authorizationOf(JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as PaymentPayload);
}

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const AUTHORIZATION_USED = parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)');

/** Reads the chain itself: Transfer events to payTo and AuthorizationUsed events since a block. */
export function chainAudit(net: LocalPaymentNetwork) {
  const client = createPublicClient({ transport: http(net.rpcUrl) });
  return {
    blockNumber: () => client.getBlockNumber(),
    async transfersToPayTo(fromBlock: bigint): Promise<{ count: number; value: bigint }> {
      const logs = await client.getLogs({
        address: net.usdc,
        event: TRANSFER,
        args: { to: net.payTo },
        fromBlock,
        toBlock: 'latest',
      });
      return { count: logs.length, value: logs.reduce((sum, log) => sum + (log.args.value ?? 0n), 0n) };
    },
    /** How many times each (authorizer, nonce) was used on chain since `fromBlock`. */
    async authorizationsUsed(fromBlock: bigint): Promise<Map<string, number>> {
      const logs = await client.getLogs({ address: net.usdc, event: AUTHORIZATION_USED, fromBlock, toBlock: 'latest' });
      const used = new Map<string, number>();
      for (const log of logs) {
        const key = `${log.args.authorizer?.toLowerCase()}:${log.args.nonce?.toLowerCase()}`;
        used.set(key, (used.get(key) ?? 0) + 1);
      }
      return used;
    },
  };
}

export const nonceKey = (from: string, nonce: string) => `${from.toLowerCase()}:${nonce.toLowerCase()}`;

/** Runs `task` repeatedly on `workers` concurrent workers until `durationMs` passes or `maxRuns` ran. */
export async function runFor(
  workers: number,
  durationMs: number,
  maxRuns: number,
  task: (worker: number) => Promise<void>,
): Promise<void> {
  const end = Date.now() + durationMs;
  let started = 0;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (Date.now() < end && started < maxRuns) {
        started++;
        await task(worker);
      }
    }),
  );
}
