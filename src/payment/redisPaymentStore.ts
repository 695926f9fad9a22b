import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { AppError } from '../errors.js';
import { DEFAULT_PARKED_LEASE_MS, type ClaimOutcome, type PaymentStore } from './paymentStore.js';
import { connectRedis, inDoubtClaims, watchConnection } from './redisConnection.js';
import { headOf, paidResult, pendingResult } from './redisEntries.js';
import { withStoreScripts } from './redisScripts.js';

export interface RedisPaymentStoreOptions {
  /** redis://[user:password@]host:port[/db], or rediss:// for TLS. Never logged (it may hold a password). */
  url: string;
  /** Namespace of this service's keys in a Redis that others may share. */
  keyPrefix?: string;
  /** Upper bound on how long one store call may wait for Redis before it fails with payment_store_unavailable (503). */
  commandTimeoutMs?: number;
  /** How long a re-sender holds a parked settlement before another may take it (default 60 s). */
  parkedLeaseMs?: number;
  log?: (line: string) => void;
}

/**
 * Redis is down or too slow. Every PaymentStore call that reaches a client happens while nothing
 * has been settled (claim, release), so the message can promise that nothing was charged; the calls
 * after a settlement attempt (complete, park, and release after a definite failure) are caught by
 * the payment processor and gate, which answer with the outcome they know.
 */
class PaymentStoreUnavailable extends AppError {
  constructor(cause: unknown) {
    super('payment_store_unavailable', 'Payment state is unavailable; nothing was charged. Retry shortly.', { cause });
    this.name = 'PaymentStoreUnavailable';
  }
}

const DEFAULT_KEY_PREFIX = 'invoice-pdf-x402:';
const DEFAULT_COMMAND_TIMEOUT_MS = 1_000;
// PX must be a positive integer. An expiry already in the past (validBefore passed between the
// offer check and the store call) gets 1 ms: like the memory store, which accepts such an entry and
// drops it on the next claim. Refusing instead would need an outcome the processor doesn't have;
// and the authorization is dead anyway (the facilitator and the token reject it after validBefore).
const ttlUntil = (expiresAtMs: number) => Math.max(1, Math.ceil(expiresAtMs - Date.now()));

/** Shared payment state for many instances of the service: the same guarantees as the memory store. */
export function createRedisPaymentStore(options: RedisPaymentStoreOptions): PaymentStore {
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const parkedLeaseMs = Math.max(1, Math.round(options.parkedLeaseMs ?? DEFAULT_PARKED_LEASE_MS));
  const log = options.log ?? (() => {});
  const instance = `${hostname()}:${process.pid}`;

  const redis = connectRedis(options.url, commandTimeoutMs);
  const scripts = withStoreScripts(redis);
  const inDoubt = inDoubtClaims((key, claim) => scripts.paymentWithdraw(key, claim));
  const connection = watchConnection(
    redis,
    `${redis.options.host}:${redis.options.port}`,
    log,
    () => void inDoubt.withdraw(),
  );

  // A failure before sending changed nothing; after sending, the effect is unknown (onUnknownOutcome).
  async function call<T>(operation: () => Promise<T>, onUnknownOutcome?: () => void): Promise<T> {
    try {
      await connection.ready(commandTimeoutMs);
    } catch (error) {
      throw new PaymentStoreUnavailable(error);
    }
    try {
      const value = await operation();
      void inDoubt.withdraw();
      return value;
    } catch (error) {
      onUnknownOutcome?.();
      throw new PaymentStoreUnavailable(error);
    }
  }

  const redisKey = (key: string) => `${prefix}${key}`;

  return {
    claim(key, expiresAtMs) {
      // Unique, so this very claim can be withdrawn later without touching anyone else's.
      const claim = JSON.stringify({ claimedAt: new Date().toISOString(), by: instance, id: randomUUID() });
      return call(
        async (): Promise<ClaimOutcome> => {
          const [kind, ...fields] = await scripts.paymentClaimBuffer(
            redisKey(key),
            claim,
            ttlUntil(expiresAtMs),
            parkedLeaseMs,
          );
          switch (kind?.toString()) {
            case 'claimed':
              return { kind: 'claimed' };
            case 'busy':
              return { kind: 'busy' };
            case 'done':
              return { kind: 'done', result: paidResult(fields) };
            case 'parked':
              return { kind: 'parked', pending: pendingResult(fields) };
            default:
              throw new Error(`unexpected claim reply ${String(kind)}`);
          }
        },
        () => inDoubt.add(redisKey(key), claim, expiresAtMs),
      );
    },

    release: (key) =>
      call(async () => {
        await scripts.paymentRelease(redisKey(key));
      }),

    complete: (key, result, expiresAtMs) =>
      call(async () => {
        await scripts.paymentComplete(
          redisKey(key),
          ttlUntil(expiresAtMs),
          result.fingerprint,
          result.contentType,
          JSON.stringify(result.receipt),
          result.body,
          result.signatureHash,
          headOf(result),
        );
      }),

    park: (key, pending, expiresAtMs, options) =>
      call(async () => {
        await scripts.paymentPark(
          redisKey(key),
          ttlUntil(expiresAtMs),
          pending.fingerprint,
          pending.contentType,
          pending.transaction,
          pending.body,
          pending.signatureHash,
          headOf(pending),
          options?.hold ? parkedLeaseMs : 0,
        );
      }),

    async close() {
      connection.closing();
      if (redis.status === 'ready') {
        try {
          await redis.quit(); // lets replies in flight arrive
          return;
        } catch {
          // a dying connection: cut it below
        }
      }
      redis.disconnect();
    },
  };
}
