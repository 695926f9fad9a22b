import { Redis } from 'ioredis';
import type { BucketStore } from './bucketStore.js';
import { takeOf, type BucketPolicy, type Take } from './tokenBucket.js';

// tokenBucket.ts's arithmetic, atomically on one key, with Redis's clock (the same for every
// instance). Tokens come back as a string: Redis would truncate a Lua number to an integer. The
// key expires once the bucket would be full again.
const TAKE_SCRIPT = `
local burst = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2]) / 1000
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(saved[1]) or burst
local at = tonumber(saved[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * perMs)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.6f', tokens), 'at', string.format('%.0f', now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / perMs) + 1000)
return {allowed, string.format('%.6f', tokens)}`;

export interface RedisBucketStoreOptions {
  url: string;
  keyPrefix?: string;
  /** A Redis call slower than this lets the request through (default 250 ms). */
  commandTimeoutMs?: number;
  log?: (line: string) => void;
}

/**
 * Buckets shared by every instance on one Redis, so N instances enforce one limit. If Redis is
 * unreachable the limit is not enforced (fail open, logged once per outage): rate limiting is a
 * guard for the service, and must not take the free routes down with Redis.
 */
export function createRedisBucketStore(options: RedisBucketStoreOptions): BucketStore {
  const prefix = options.keyPrefix ?? 'invoice-pdf-x402:ratelimit:';
  const log = options.log ?? (() => {});
  const redis = new Redis(options.url, {
    connectTimeout: 2_000,
    commandTimeout: options.commandTimeoutMs ?? 250,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(100 * 2 ** (attempt - 1), 2_000),
  });
  redis.on('error', () => undefined); // reported below, once per outage
  redis.defineCommand('rateLimitTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
  const scripts = redis as Redis & {
    rateLimitTake(key: string, burst: number, perSecond: number): Promise<[number, string]>;
  };
  let failing = false;
  const commandTimeoutMs = options.commandTimeoutMs ?? 250;

  /** Waits (at most one command timeout) for a connection under way, e.g. at start-up; not during a known outage. */
  const connected = () =>
    redis.status === 'ready' || failing
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            redis.off('ready', done);
            resolve();
          };
          const timer = setTimeout(done, commandTimeoutMs);
          redis.once('ready', done);
        });

  return {
    async take(key: string, policy: BucketPolicy): Promise<Take> {
      try {
        await connected();
        const [allowed, tokens] = await scripts.rateLimitTake(`${prefix}${key}`, policy.burst, policy.perSecond);
        if (failing) log('rate limit store: Redis answers again; limits enforced');
        failing = false;
        return takeOf(allowed === 1, Number(tokens), policy);
      } catch (error) {
        if (!failing)
          log(`rate limit store: Redis unavailable, limits not enforced until it is back (${String(error)})`);
        failing = true;
        return { allowed: true, remaining: policy.burst, retryAfterMs: 0, resetMs: 0 };
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}
