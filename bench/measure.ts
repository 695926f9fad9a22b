/** Latency percentiles and throughput under concurrency, the numbers every target is compared by. */

export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** The middle value, or the mean of the two middle ones. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
}

/** Wall time of `count` sequential calls, one sample each. */
export async function latencies(count: number, call: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  return samples;
}

/** Calls per second with `concurrency` callers sharing `total` calls. */
export async function throughput(total: number, concurrency: number, call: () => Promise<unknown>): Promise<number> {
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started++;
      await call();
    }
  };
  const begin = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return total / ((performance.now() - begin) / 1000);
}
