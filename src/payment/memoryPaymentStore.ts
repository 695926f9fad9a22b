import {
  DEFAULT_PARKED_LEASE_MS,
  type ClaimOutcome,
  type PaidResult,
  type PaymentStore,
  type PendingResult,
} from './paymentStore.js';

type Entry = { expiresAtMs: number; result?: PaidResult; parked?: { pending: PendingResult; heldUntilMs: number } };

export interface MemoryPaymentStoreOptions {
  now?: () => number;
  /** How long a re-sender holds a parked settlement (default 60 s). */
  parkedLeaseMs?: number;
}

/** The embedded default: correct for one instance. Expired entries are swept on each claim. */
export function createMemoryPaymentStore(options: MemoryPaymentStoreOptions = {}): PaymentStore {
  const { now = Date.now, parkedLeaseMs = DEFAULT_PARKED_LEASE_MS } = options;
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
      if (entry?.parked) {
        if (entry.parked.heldUntilMs > now()) return { kind: 'busy' };
        entry.parked.heldUntilMs = now() + parkedLeaseMs;
        return { kind: 'parked', pending: entry.parked.pending };
      }
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
    async park(key, pending, expiresAtMs, options) {
      if (entries.get(key)?.result) return;
      entries.set(key, { expiresAtMs, parked: { pending, heldUntilMs: options?.hold ? now() + parkedLeaseMs : 0 } });
    },
    async close() {
      entries.clear();
    },
  };
}
