import type { Context, Middleware } from 'koa';
import { AppError } from '../../errors.js';
import type { Payer, PayerAdmission } from '../../payment/paymentProcessor.js';
import type { BucketStore } from './bucketStore.js';
import { clientAddressOf } from './clientAddress.js';
import type { BucketPolicy, Take } from './tokenBucket.js';

export interface RateLimitOptions {
  store: BucketStore;
  /** Per client address, on every route but the exempt ones; undefined: off. */
  client?: BucketPolicy;
  /** Per payer, on paid calls that reach the facilitator (payerBucketKey); undefined: off. */
  payer?: BucketPolicy;
  trustedProxyHops: number;
  /** Probes and scrapes keep answering whatever a client does. */
  exemptPaths: ReadonlySet<string>;
}

/**
 * Token buckets per client address and per payer. Every answer on a limited route says where the
 * client stands (IETF RateLimit-Policy / RateLimit headers); over the limit it is a 429
 * `rate_limited` with Retry-After. The client bucket is taken here, before anything else; the payer
 * bucket only later, by the payment processor, once the payment passed every local check
 * (PayerAdmission): this middleware leaves the admission for this client address in
 * `ctx.state.admitPayer`, where the Koa router and the MCP endpoint pick it up for the call core.
 */
export function rateLimit(options: RateLimitOptions): Middleware {
  const { store, client, payer } = options;
  return async (ctx, next) => {
    if ((!client && !payer) || options.exemptPaths.has(ctx.path)) return next();
    const address = clientAddressOf(
      ctx.req.socket.remoteAddress,
      ctx.get('X-Forwarded-For') || undefined,
      options.trustedProxyHops,
    );
    const takes: [BucketPolicy, Take][] = [];
    if (client) takes.push([client, await store.take(`client:${address}`, client)]);
    setRateLimitHeaders(ctx, takes);
    const denied = takes.filter(([, take]) => !take.allowed);
    if (denied.length) throw rateLimited('this client address', denied[0]![1]);
    if (payer) {
      ctx.state.admitPayer = (async (claimed) => {
        const take = await store.take(payerBucketKey(claimed, address), payer);
        setRateLimitHeaders(ctx, [...takes, [payer, take]]);
        if (!take.allowed) throw rateLimited('this payer', take);
      }) satisfies PayerAdmission;
    }
    await next();
  };
}

/**
 * Whose budget a paid call spends. A proven payer (its 65-byte signature recovered to `from`) has
 * one bucket, whichever client address or transport it pays from. A smart account's signature
 * can't be proven here, so anyone may claim any `from` with one: such a call spends a bucket of
 * that client address and that claimed payer, which still bounds what one address can make us ask
 * the facilitator about one payer (besides the client bucket), and which a forger, from however
 * many addresses, never shares with the payer itself.
 */
const payerBucketKey = (payer: Payer, clientAddress: string): string =>
  payer.proven ? `payer:${payer.from}` : `payer:${payer.from}:unproven:${clientAddress}`;

function setRateLimitHeaders(ctx: Context, takes: [BucketPolicy, Take][]): void {
  if (!takes.length) return;
  ctx.set(
    'RateLimit-Policy',
    takes
      .map(([policy]) => `"${policy.name}";q=${policy.burst};w=${Math.ceil(policy.burst / policy.perSecond)}`)
      .join(', '),
  );
  ctx.set(
    'RateLimit',
    takes
      .map(([policy, take]) => `"${policy.name}";r=${take.remaining};t=${Math.ceil(take.resetMs / 1000)}`)
      .join(', '),
  );
}

function rateLimited(who: string, take: Take): AppError {
  const seconds = Math.max(1, Math.ceil(take.retryAfterMs / 1000));
  return new AppError('rate_limited', `Too many requests from ${who}; retry after ${seconds} s.`, {
    retryAfterSeconds: seconds,
  });
}
