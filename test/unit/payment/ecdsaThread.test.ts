// A paid request's secp256k1 work runs off the event loop (src/payment/ecdsaThread.ts): the same
// address as viem's recovery on this thread, the same signature as viem's signing, a rejection
// where viem rejects, and the event loop free while the work runs.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { keccak256, recoverAddress, toHex, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, sign } from 'viem/accounts';
import { recoverSigner, signHash } from '../../../src/payment/ecdsaThread.js';

const privateKey = generatePrivateKey();
const account = privateKeyToAccount(privateKey);
const signedHashes = (count: number) =>
  Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const hash = keccak256(toHex(`payment ${i}`));
      return { hash, signature: await account.sign({ hash }) };
    }),
  );

test('recovers the signer viem recovers, on another thread', async () => {
  for (const { hash, signature } of await signedHashes(5)) {
    const recovered = await recoverSigner(hash, signature);
    assert.equal(recovered, account.address);
    assert.equal(recovered, await recoverAddress({ hash, signature }));
  }
});

test('signs as viem signs, on another thread', async () => {
  for (let i = 0; i < 5; i++) {
    const hash = keccak256(toHex(`receipt ${i}`));
    const signature = await signHash(hash, privateKey);
    assert.equal(signature, await sign({ hash, privateKey, to: 'hex' }));
    assert.equal(await recoverAddress({ hash, signature }), account.address);
  }
});

test('a signature that recovers to no key is refused, as viem refuses it', async () => {
  const hash = keccak256(toHex('payment'));
  const noPoint: Hex = `0x${'ff'.repeat(64)}1b`;
  await assert.rejects(recoverAddress({ hash, signature: noPoint }));
  await assert.rejects(recoverSigner(hash, noPoint));
});

/**
 * The CPU time this thread (the event loop's) spent while `work` ran, in ms: Linux's per-thread
 * run time (/proc/thread-self/schedstat, ns), which other processes taking the cores leave
 * unchanged. The event loop's utilisation counted the wall time while the loop was busy, so a try on
 * a loaded machine read as busy (the least of three still failed under three busy loops beside npm
 * test on 2 cores: 115.5 against 281.8 ms). Elsewhere, that utilisation.
 */
async function loopCpuMs(work: () => Promise<unknown>): Promise<number> {
  if (!existsSync(SCHEDSTAT)) {
    const before = performance.eventLoopUtilization();
    await work();
    return performance.eventLoopUtilization(before).active;
  }
  const before = threadRunNs();
  await work();
  return Number(threadRunNs() - before) / 1e6;
}
const SCHEDSTAT = '/proc/thread-self/schedstat';
const threadRunNs = () => BigInt(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]!);

test('the event loop stays free while recoveries run', async () => {
  const signed = await signedHashes(50);
  await recoverSigner(signed[0]!.hash, signed[0]!.signature); // the thread started
  await recoverAddress(signed[0]!); // viem's secp256k1 module loaded here
  const onThisThread = await loopCpuMs(() => Promise.all(signed.map((each) => recoverAddress(each))));
  const offIt = await loopCpuMs(() => Promise.all(signed.map(({ hash, signature }) => recoverSigner(hash, signature))));
  // 50 recoveries took 6-8 ms of the loop's CPU each on it (300-400 ms); handed over, a few ms in all.
  assert.ok(
    offIt < onThisThread / 3,
    `the loop was busy ${offIt.toFixed(1)} ms (on it: ${onThisThread.toFixed(1)} ms)`,
  );
});
