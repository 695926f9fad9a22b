import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';

/**
 * What a paid document entitles its payer to: the same document again, free, until `expiresAtMs`.
 * `specimen`: it was paid with test money (src/payment/trial/trialNetwork.ts), so a re-download is
 * a specimen too.
 */
interface Entitlement {
  network: string;
  specimen: boolean;
  grantedAtMs: number;
  expiresAtMs: number;
}

/**
 * Sign-in-with-x state, shared like the payment store (one instance: memory; several: Redis):
 * which payer may fetch which request again, and which sign-in nonces were already used.
 */
export interface EntitlementStore {
  /** Records (or renews) the entitlement of `payer` to the request `fingerprint`. */
  grant(payer: string, fingerprint: string, entitlement: Entitlement): Promise<void>;
  find(payer: string, fingerprint: string): Promise<Entitlement | undefined>;
  /**
   * Takes a sign-in nonce for good (until `expiresAtMs`, when the message it came in is too old
   * anyway): true the first time, false for every replay, atomically across instances.
   */
  useNonce(nonce: string, expiresAtMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * One key per payer and request: the lower-cased address and the request fingerprint (method,
 * path and body: src/operations/operationJobs.ts fingerprintOf), hashed so keys stay short.
 */
const entitlementKey = (payer: string, fingerprint: string): string =>
  createHash('sha256').update(`${payer.toLowerCase()}\n${fingerprint}`).digest('hex');

const NONCE_LIMIT = 200;

/** The single-process default: correct for one instance, gone with it (like the memory payment store). */
export function createMemoryEntitlementStore(options: { now?: () => number } = {}): EntitlementStore {
  const now = options.now ?? Date.now;
  const entitlements = new Map<string, Entitlement>();
  const nonces = new Map<string, number>();
  const sweep = <T>(entries: Map<string, T>, expiry: (value: T) => number) => {
    const time = now();
    for (const [key, value] of entries) if (expiry(value) <= time) entries.delete(key);
  };
  return {
    async grant(payer, fingerprint, entitlement) {
      sweep(entitlements, (value) => value.expiresAtMs);
      entitlements.set(entitlementKey(payer, fingerprint), entitlement);
    },
    async find(payer, fingerprint) {
      const found = entitlements.get(entitlementKey(payer, fingerprint));
      return found && found.expiresAtMs > now() ? found : undefined;
    },
    async useNonce(nonce, expiresAtMs) {
      if (nonce.length > NONCE_LIMIT) return false;
      sweep(nonces, (expiry) => expiry);
      if (nonces.has(nonce)) return false;
      nonces.set(nonce, expiresAtMs);
      return true;
    },
    async close() {
      entitlements.clear();
      nonces.clear();
    },
  };
}

export interface RedisEntitlementStoreOptions {
  /** The payment store's Redis (REDIS_URL). Never logged: it may hold a password. */
  url: string;
  keyPrefix?: string;
  commandTimeoutMs?: number;
}

/**
 * Entitlements in Redis with a PX expiry at their end, nonces by SET NX PX: they survive a restart
 * and every instance sees the same ones. A Redis failure rejects, and the caller answers with the
 * ordinary 402 (sign-in unavailable never hands out a document).
 */
export function createRedisEntitlementStore(options: RedisEntitlementStoreOptions): EntitlementStore {
  const prefix = options.keyPrefix ?? 'invoice-pdf-x402:siwx:';
  const redis = new Redis(options.url, {
    connectTimeout: 2_000,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
    maxRetriesPerRequest: 1,
  });
  redis.on('error', () => undefined); // a failed command rejects; the caller decides
  const ttl = (expiresAtMs: number) => Math.max(1, Math.ceil(expiresAtMs - Date.now()));
  return {
    async grant(payer, fingerprint, entitlement) {
      const key = `${prefix}entitlement:${entitlementKey(payer, fingerprint)}`;
      await redis.set(key, JSON.stringify(entitlement), 'PX', ttl(entitlement.expiresAtMs));
    },
    async find(payer, fingerprint) {
      const text = await redis.get(`${prefix}entitlement:${entitlementKey(payer, fingerprint)}`);
      return text === null ? undefined : (JSON.parse(text) as Entitlement);
    },
    async useNonce(nonce, expiresAtMs) {
      if (nonce.length > NONCE_LIMIT) return false;
      const taken = await redis.set(`${prefix}nonce:${nonce}`, '1', 'PX', ttl(expiresAtMs), 'NX');
      return taken === 'OK';
    },
    async close() {
      redis.disconnect();
    },
  };
}
