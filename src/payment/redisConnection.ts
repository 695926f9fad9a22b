import { Redis } from 'ioredis';

// Generous enough for a TLS handshake to a managed Redis; calls never wait on it longer than
// commandTimeoutMs, so it only decides when ioredis gives up on one connection attempt.
const CONNECT_TIMEOUT_MS = 2_000;
// Reconnect attempts back off 100 ms, 200 ms, ... up to this, forever: the store heals by itself
// within about this long after Redis is back, without hammering a Redis that is restarting.
const MAX_RECONNECT_DELAY_MS = 2_000;
/** The store's Redis client: commands fail fast rather than queue, and it reconnects forever. */
export function connectRedis(url: string, commandTimeoutMs: number): Redis {
  return new Redis(url, {
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: commandTimeoutMs,
    // Fail fast instead of queueing: a queued or re-sent claim could run after its caller already
    // got a 503, and then lock the authorization for nobody until validBefore.
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(100 * 2 ** (attempt - 1), MAX_RECONNECT_DELAY_MS),
  });
}

// In-doubt claims remembered for withdrawal; past this, an outage simply leaves them to expire.
const MAX_IN_DOUBT_CLAIMS = 1_000;

// A claim whose reply never came (command timeout, connection lost mid-command) may still have been
// applied by Redis, but its caller got a 503 and will never release it: the authorization would
// stay locked for nobody until validBefore, and a retry with the same signature would wait for a
// result that never comes. Such claims are withdrawn by value as soon as Redis answers again (the
// first attempt goes right behind the claim on the same connection, so Redis runs it after the
// claim even if both time out on our side).
export function inDoubtClaims(withdrawOne: (key: string, claim: string) => Promise<unknown>) {
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

interface ConnectionWatch {
  /** Resolves when commands can be sent; rejects at once while Redis is known to be down. */
  ready(timeoutMs: number): Promise<void>;
  closing(): void;
}

// With the offline queue off, a command sent before the connection is ready fails at once. Right
// after start (or while a reconnect attempt is connecting) that would turn a healthy Redis into
// 503s, so calls wait for readiness, briefly. Between reconnect attempts Redis is known to be down:
// calls fail immediately instead of each holding a request for the full timeout.
export function watchConnection(
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
