import { takeToken, type BucketPolicy, type BucketState, type Take } from './tokenBucket.js';

/** Where the buckets live: in memory for one instance, in Redis for several (redisBucketStore.ts). */
export interface BucketStore {
  take(key: string, policy: BucketPolicy): Promise<Take>;
  close(): Promise<void>;
}

/**
 * One instance's buckets. A bucket that has refilled completely is the same as no bucket, so the
 * sweep drops those: memory holds only clients active within the last few seconds.
 */
export function createMemoryBucketStore(now: () => number = Date.now): BucketStore {
  const buckets = new Map<string, { state: BucketState; fullAtMs: number }>();
  let takesSinceSweep = 0;
  const sweep = () => {
    const time = now();
    for (const [key, bucket] of buckets) if (bucket.fullAtMs <= time) buckets.delete(key);
  };
  return {
    async take(key, policy) {
      if (++takesSinceSweep >= 1_000) {
        takesSinceSweep = 0;
        sweep();
      }
      const time = now();
      const { state, take } = takeToken(buckets.get(key)?.state, policy, time);
      buckets.set(key, { state, fullAtMs: time + take.resetMs });
      return take;
    },
    async close() {
      buckets.clear();
    },
  };
}
