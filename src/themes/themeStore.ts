import { Redis } from 'ioredis';

/**
 * Where themes put by PUT /v1/themes live, keyed by their id (the SHA-256 of their canonical JSON,
 * src/invoice/designFields.ts). Redis when REDIS_URL is set, so every instance knows every theme;
 * in memory otherwise. Either way an entry expires THEME_TTL_SECONDS after it was last put (putting
 * the same theme again renews it), and the memory store keeps at most THEME_MEMORY_MAX entries,
 * dropping the least recently put.
 */
export interface ThemeStore {
  /** Stores the canonical JSON under its id, renewing the expiry. */
  put(id: string, canonical: string): Promise<void>;
  /** The canonical JSON, or undefined for an unknown or expired id. Rejects when the store is unreachable. */
  get(id: string): Promise<string | undefined>;
  close(): Promise<void>;
}

/** 30 days: long enough for a month's invoicing run, short enough that abandoned themes go. */
export const THEME_TTL_SECONDS = 30 * 24 * 3600;
const THEME_MEMORY_MAX = 10_000;

export function createMemoryThemeStore(
  options: { ttlSeconds?: number; maxEntries?: number; now?: () => number } = {},
): ThemeStore {
  const ttlMs = (options.ttlSeconds ?? THEME_TTL_SECONDS) * 1000;
  const maxEntries = options.maxEntries ?? THEME_MEMORY_MAX;
  const now = options.now ?? Date.now;
  // A Map keeps insertion order: re-inserting on put makes the first entry the least recently put.
  const entries = new Map<string, { canonical: string; expires: number }>();
  return {
    async put(id, canonical) {
      entries.delete(id);
      entries.set(id, { canonical, expires: now() + ttlMs });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    async get(id) {
      const entry = entries.get(id);
      if (entry === undefined) return undefined;
      if (entry.expires <= now()) {
        entries.delete(id);
        return undefined;
      }
      return entry.canonical;
    },
    async close() {
      entries.clear();
    },
  };
}

export function createRedisThemeStore(options: { url: string; keyPrefix?: string; ttlSeconds?: number }): ThemeStore {
  const prefix = options.keyPrefix ?? 'invoice-pdf-x402:theme:';
  const ttl = options.ttlSeconds ?? THEME_TTL_SECONDS;
  const redis = new Redis(options.url, {
    connectTimeout: 2_000,
    commandTimeout: 1_000,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
  });
  redis.on('error', () => undefined); // a failed command rejects, and the caller answers for it
  return {
    async put(id, canonical) {
      await redis.set(prefix + id, canonical, 'EX', ttl);
    },
    async get(id) {
      return (await redis.get(prefix + id)) ?? undefined;
    },
    async close() {
      redis.disconnect();
    },
  };
}
