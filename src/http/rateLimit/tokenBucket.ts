/**
 * A token bucket: `burst` tokens, refilled at `perSecond`; a request takes one. It allows bursts
 * up to `burst` and a sustained `perSecond`, and it needs only two numbers per key (tokens, time),
 * so one Redis script can update it atomically (redisBucketStore.ts does the same arithmetic).
 */
export interface BucketPolicy {
  /** The name in the RateLimit / RateLimit-Policy headers. */
  name: string;
  burst: number;
  perSecond: number;
}

export interface BucketState {
  tokens: number;
  atMs: number;
}

export interface Take {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** When denied: how long until one token is back. */
  retryAfterMs: number;
  /** How long until the bucket is full again. */
  resetMs: number;
}

export function takeToken(
  state: BucketState | undefined,
  policy: BucketPolicy,
  nowMs: number,
): { state: BucketState; take: Take } {
  const perMs = policy.perSecond / 1000;
  const previous = state ?? { tokens: policy.burst, atMs: nowMs };
  let tokens = Math.min(policy.burst, previous.tokens + Math.max(0, nowMs - previous.atMs) * perMs);
  const allowed = tokens >= 1;
  if (allowed) tokens -= 1;
  return { state: { tokens, atMs: nowMs }, take: takeOf(allowed, tokens, policy) };
}

/** The answer for a bucket left with `tokens` (shared with the Redis store, which computes tokens in Lua). */
export function takeOf(allowed: boolean, tokens: number, policy: BucketPolicy): Take {
  const perMs = policy.perSecond / 1000;
  return {
    allowed,
    remaining: Math.floor(tokens),
    retryAfterMs: allowed ? 0 : Math.ceil((1 - tokens) / perMs),
    resetMs: Math.ceil((policy.burst - tokens) / perMs),
  };
}
