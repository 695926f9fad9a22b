import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { AppError } from '../errors.js';
import type { SettleResponse } from './facilitatorClient.js';
import {
  DEFAULT_PARKED_LEASE_MS,
  type ClaimOutcome,
  type PaidResult,
  type PaymentStore,
  type PendingResult,
} from './paymentStore.js';

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
export class PaymentStoreUnavailable extends AppError {
  constructor(cause: unknown) {
    super('payment_store_unavailable', 'Payment state is unavailable; nothing was charged. Retry shortly.', { cause });
    this.name = 'PaymentStoreUnavailable';
  }
}

// Data layout: ONE key per authorization, `${keyPrefix}${authorizationKey}`, whose Redis type is its
// state. A string is a claim (JSON saying who holds it, for humans running redis-cli); a hash is
// either a paid result (fingerprint, contentType, receipt, body as raw bytes, signature: the hash of
// the signature that paid, head: the answer's status and headers as JSON) or, when it has a
// `state` field ('parked'), a settlement of unknown outcome waiting to be collected (fingerprint,
// contentType, transaction, body, signature, head, and `heldUntil`: until when, in Redis server milliseconds, one
// re-sender holds it). All carry a PX expiry at the authorization's validBefore, so Redis forgets an
// authorization exactly when it can no longer be settled. One key means every state change is a
// single-key script: atomic, and cluster-safe.

// SET NX is the single-flight lock; on a miss the same script reads the result, or hands a parked
// settlement to this caller if nobody holds it (the lease uses Redis's clock, the same for every
// instance), so a claimer never sees a key that changed between two round trips.
const CLAIM_SCRIPT = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return {'claimed'} end
if redis.call('TYPE', KEYS[1]).ok == 'hash' then
  if redis.call('HEXISTS', KEYS[1], 'state') == 1 then
    local time = redis.call('TIME')
    local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
    if tonumber(redis.call('HGET', KEYS[1], 'heldUntil') or '0') > now then return {'busy'} end
    redis.call('HSET', KEYS[1], 'heldUntil', string.format('%.0f', now + tonumber(ARGV[3])))
    return {'parked', unpack(redis.call('HMGET', KEYS[1], 'fingerprint', 'contentType', 'transaction', 'body', 'signature', 'head'))}
  end
  return {'done', unpack(redis.call('HMGET', KEYS[1], 'fingerprint', 'contentType', 'receipt', 'body', 'signature', 'head'))}
end
return {'busy'}`;

// Deletes a claim or a parked settlement, never a result: a release racing a complete (or
// arriving late) can't erase a paid result, which a plain DEL could.
const RELEASE_SCRIPT = `
local kind = redis.call('TYPE', KEYS[1]).ok
if kind == 'string' or (kind == 'hash' and redis.call('HEXISTS', KEYS[1], 'state') == 1) then
  return redis.call('DEL', KEYS[1])
end
return 0`;

// Withdraws one particular claim (matched by its unique value): never another holder's claim,
// never a result.
const WITHDRAW_SCRIPT = `
if redis.call('TYPE', KEYS[1]).ok == 'string' and redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

// Replaces the claim (or the parked settlement) by the result in one step: no reader ever sees neither.
const COMPLETE_SCRIPT = `
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'fingerprint', ARGV[2], 'contentType', ARGV[3], 'receipt', ARGV[4], 'body', ARGV[5], 'signature', ARGV[6], 'head', ARGV[7])
return redis.call('PEXPIRE', KEYS[1], ARGV[1])`;

// Replaces the claim (or a parked settlement, freeing it for the next re-sender) by a parked
// settlement, in one step; a paid result stays as it is. ARGV[8] > 0: the caller holds it for that
// many milliseconds of Redis's clock (a settlement about to be attempted), else it is free.
const PARK_SCRIPT = `
if redis.call('TYPE', KEYS[1]).ok == 'hash' and redis.call('HEXISTS', KEYS[1], 'state') == 0 then return 0 end
local heldUntil = '0'
if tonumber(ARGV[8]) > 0 then
  local time = redis.call('TIME')
  heldUntil = string.format('%.0f', tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) + tonumber(ARGV[8]))
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'state', 'parked', 'heldUntil', heldUntil, 'fingerprint', ARGV[2], 'contentType', ARGV[3], 'transaction', ARGV[4], 'body', ARGV[5], 'signature', ARGV[6], 'head', ARGV[7])
return redis.call('PEXPIRE', KEYS[1], ARGV[1])`;

interface StoreScripts {
  // The Buffer variant ioredis derives from defineCommand: the body must come back byte-exact.
  paymentClaimBuffer(key: string, claim: string, ttlMs: number, leaseMs: number): Promise<(Buffer | null)[]>;
  paymentRelease(key: string): Promise<number>;
  paymentWithdraw(key: string, claim: string): Promise<number>;
  paymentComplete(
    key: string,
    ttlMs: number,
    fingerprint: string,
    contentType: string,
    receipt: string,
    body: Buffer,
    signatureHash: string,
    head: string,
  ): Promise<number>;
  paymentPark(
    key: string,
    ttlMs: number,
    fingerprint: string,
    contentType: string,
    transaction: string,
    body: Buffer,
    signatureHash: string,
    head: string,
    holdMs: number,
  ): Promise<number>;
}

const DEFAULT_KEY_PREFIX = 'invoice-pdf-x402:';
const DEFAULT_COMMAND_TIMEOUT_MS = 1_000;
// Generous enough for a TLS handshake to a managed Redis; calls never wait on it longer than
// commandTimeoutMs, so it only decides when ioredis gives up on one connection attempt.
const CONNECT_TIMEOUT_MS = 2_000;
// Reconnect attempts back off 100 ms, 200 ms, ... up to this, forever: the store heals by itself
// within about this long after Redis is back, without hammering a Redis that is restarting.
const MAX_RECONNECT_DELAY_MS = 2_000;
// PX must be a positive integer. An expiry already in the past (validBefore passed between the
// offer check and the store call) gets 1 ms: like the memory store, which accepts such an entry and
// drops it on the next claim. Refusing instead would need an outcome the processor doesn't have;
// and the authorization is dead anyway (the facilitator and the token reject it after validBefore).
const ttlUntil = (expiresAtMs: number) => Math.max(1, Math.ceil(expiresAtMs - Date.now()));
// In-doubt claims remembered for withdrawal; past this, an outage simply leaves them to expire.
const MAX_IN_DOUBT_CLAIMS = 1_000;

/** Shared payment state for many instances of the service: the same guarantees as the memory store. */
export function createRedisPaymentStore(options: RedisPaymentStoreOptions): PaymentStore {
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const parkedLeaseMs = Math.max(1, Math.round(options.parkedLeaseMs ?? DEFAULT_PARKED_LEASE_MS));
  const log = options.log ?? (() => {});
  const instance = `${hostname()}:${process.pid}`;

  const redis = new Redis(options.url, {
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: commandTimeoutMs,
    // Fail fast instead of queueing: a queued or re-sent claim could run after its caller already
    // got a 503, and then lock the authorization for nobody until validBefore.
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(100 * 2 ** (attempt - 1), MAX_RECONNECT_DELAY_MS),
  });
  redis.defineCommand('paymentClaim', { numberOfKeys: 1, lua: CLAIM_SCRIPT });
  redis.defineCommand('paymentRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
  redis.defineCommand('paymentComplete', { numberOfKeys: 1, lua: COMPLETE_SCRIPT });
  redis.defineCommand('paymentWithdraw', { numberOfKeys: 1, lua: WITHDRAW_SCRIPT });
  redis.defineCommand('paymentPark', { numberOfKeys: 1, lua: PARK_SCRIPT });
  const scripts = redis as Redis & StoreScripts;
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

// A claim whose reply never came (command timeout, connection lost mid-command) may still have been
// applied by Redis, but its caller got a 503 and will never release it: the authorization would
// stay locked for nobody until validBefore, and a retry with the same signature would wait for a
// result that never comes. Such claims are withdrawn by value as soon as Redis answers again (the
// first attempt goes right behind the claim on the same connection, so Redis runs it after the
// claim even if both time out on our side).
function inDoubtClaims(withdrawOne: (key: string, claim: string) => Promise<unknown>) {
  const pending = new Map<string, { key: string; expiresAtMs: number }>();
  let running = false;

  async function withdraw(): Promise<void> {
    if (running || pending.size === 0) return;
    running = true;
    try {
      for (const [claim, { key, expiresAtMs }] of pending) {
        if (expiresAtMs > Date.now()) await withdrawOne(key, claim);
        pending.delete(claim);
      }
    } catch {
      // Redis is still away: the next successful call or reconnection tries again.
    } finally {
      running = false;
    }
  }

  return {
    add(key: string, claim: string, expiresAtMs: number) {
      if (pending.size < MAX_IN_DOUBT_CLAIMS) pending.set(claim, { key, expiresAtMs });
      void withdraw();
    },
    withdraw,
  };
}

/**
 * The settlement as kept: its JSON. An entry written by a version that kept the PAYMENT-RESPONSE
 * header value holds base64 of the same JSON; it lives until its authorization's validBefore (at
 * most a day), so a rolling upgrade still hands it back.
 */
function storedReceipt(text: string): SettleResponse {
  const json = text.startsWith('{') ? text : Buffer.from(text, 'base64').toString('utf8');
  return JSON.parse(json) as SettleResponse;
}

/** A paid result as complete() writes it: every field present, or the entry is refused as incomplete. */
function paidResult([fingerprint, contentType, receipt, body, signature, head]: (Buffer | null)[]): PaidResult {
  if (!fingerprint || !contentType || !receipt || !body || !signature || !head)
    throw new Error('the stored payment result is incomplete');
  return {
    fingerprint: fingerprint.toString(),
    contentType: contentType.toString(),
    receipt: storedReceipt(receipt.toString()),
    body,
    signatureHash: signature.toString(),
    ...readHead(head),
  };
}

/** A parked settlement as park() writes it: every field present, or the entry is refused as incomplete. */
function pendingResult([
  fingerprint,
  contentType,
  transaction,
  body,
  signature,
  head,
]: (Buffer | null)[]): PendingResult {
  if (!fingerprint || !contentType || !transaction || !body || !signature || !head)
    throw new Error('the parked settlement is incomplete');
  return {
    fingerprint: fingerprint.toString(),
    contentType: contentType.toString(),
    transaction: transaction.toString(),
    body,
    signatureHash: signature.toString(),
    ...readHead(head),
  };
}

interface ConnectionWatch {
  /** Resolves when commands can be sent; rejects at once while Redis is known to be down. */
  ready(timeoutMs: number): Promise<void>;
  closing(): void;
}

// With the offline queue off, a command sent before the connection is ready fails at once. Right
// after start (or while a reconnect attempt is connecting) that would turn a healthy Redis into
// 503s, so calls wait for readiness, briefly. Between reconnect attempts Redis is known to be down:
// calls fail immediately instead of each holding a request for the full timeout.
function watchConnection(
  redis: Redis,
  address: string,
  log: (line: string) => void,
  onReady: () => void,
): ConnectionWatch {
  const waiters = new Set<(ready: boolean) => void>();
  const wake = (ready: boolean) => {
    for (const waiter of waiters) waiter(ready);
    waiters.clear();
  };
  let lastError: string | undefined;
  let healthy = false;
  let closing = false;

  // One line per outage, not one per reconnect attempt. The 'error' listener is also what keeps
  // ioredis from printing every failed attempt to the console.
  redis.on('error', (error: Error) => {
    if (lastError === undefined && !closing)
      log(`payment store: Redis at ${address} unavailable (${error.message}); reconnecting`);
    lastError = error.message;
  });
  redis.on('close', () => {
    if (healthy && !closing) {
      log(`payment store: lost the connection to Redis at ${address}; reconnecting`);
      lastError = 'connection closed';
    }
    healthy = false;
  });
  redis.on('ready', () => {
    log(
      lastError === undefined
        ? `payment store: Redis at ${address} ready`
        : `payment store: Redis at ${address} is back`,
    );
    healthy = true;
    lastError = undefined;
    wake(true);
    onReady();
  });
  redis.on('end', () => wake(false));

  return {
    ready(timeoutMs) {
      const status = redis.status;
      if (status === 'ready') return Promise.resolve();
      if (status === 'reconnecting' || status === 'close' || status === 'end') {
        return Promise.reject(new Error(`Redis connection is ${status}${lastError ? ` (${lastError})` : ''}`));
      }
      return new Promise((resolve, reject) => {
        const waiter = (ready: boolean) => {
          clearTimeout(timer);
          waiters.delete(waiter);
          if (ready) resolve();
          else reject(new Error(`Redis not ready within ${timeoutMs} ms${lastError ? ` (${lastError})` : ''}`));
        };
        const timer = setTimeout(() => waiter(false), timeoutMs);
        waiters.add(waiter);
      });
    },
    closing() {
      closing = true;
    },
  };
}

/** The answer's status and headers, one JSON field beside the raw body. */
const headOf = (answer: { status: number; headers: Record<string, string> }) =>
  JSON.stringify({ status: answer.status, headers: answer.headers });

/** The answer's status and headers as headOf wrote them. */
function readHead(head: Buffer): { status: number; headers: Record<string, string> } {
  const { status, headers } = JSON.parse(head.toString()) as { status: number; headers: Record<string, string> };
  return { status, headers };
}
