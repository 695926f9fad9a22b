import type { ClaimOutcome, PaidResult, PaymentStore } from './paymentStore.js';

type Entry = { expiresAtMs: number; result?: PaidResult };

/** The embedded default: correct for one instance. Expired entries are swept on each claim. */
export function createMemoryPaymentStore(now: () => number = Date.now): PaymentStore {
  const entries = new Map<string, Entry>();

  const sweep = () => {
    const time = now();
    for (const [key, entry] of entries) if (entry.expiresAtMs <= time) entries.delete(key);
  };

  return {
    async claim(key, expiresAtMs): Promise<ClaimOutcome> {
      sweep();
      const entry = entries.get(key);
      if (entry?.result) return { kind: 'done', result: entry.result };
      if (entry) return { kind: 'busy' };
      entries.set(key, { expiresAtMs });
      return { kind: 'claimed' };
    },
    async release(key) {
      if (!entries.get(key)?.result) entries.delete(key);
    },
    async complete(key, result, expiresAtMs) {
      entries.set(key, { expiresAtMs, result });
    },
    async close() {
      entries.clear();
    },
  };
}
