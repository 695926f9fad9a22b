import type { Middleware } from 'koa';
import { AppError } from '../../errors.js';
import { decodePaymentSignature } from '../../payment/paymentHeader.js';
import type { BucketStore } from './bucketStore.js';
import { clientAddressOf } from './clientAddress.js';
import type { BucketPolicy, Take } from './tokenBucket.js';

export interface RateLimitOptions {
  store: BucketStore;
  /** Per client address, on every route but the exempt ones; undefined: off. */
  client?: BucketPolicy;
  /** Per payer (authorization.from), on paid routes that carry a PAYMENT-SIGNATURE; undefined: off. */
  payer?: BucketPolicy;
  trustedProxyHops: number;
  /** Probes and scrapes keep answering whatever a client does. */
  exemptPaths: ReadonlySet<string>;
  isPaid(method: string, path: string): boolean;
}

/**
 * Token buckets per client address and per payer. Every answer on a limited route says where the
 * client stands (IETF RateLimit-Policy / RateLimit headers); over the limit it is a 429
 * `rate_limited` with Retry-After. The payer limit bounds what one payer can make us ask the
 * facilitator (smart-account signatures can't be checked locally); it counts only headers that
 * decode, the payment gate answers the rest. Paid MCP tool calls carry their payment in the
 * JSON-RPC body instead: they take from the same payer bucket through payerLimit().
 */
export function rateLimit(options: RateLimitOptions): Middleware {
  const { store, client, payer } = options;
  return async (ctx, next) => {
    if ((!client && !payer) || options.exemptPaths.has(ctx.path)) return next();
    const takes: [BucketPolicy, Take][] = [];
    if (client) {
      const address = clientAddressOf(ctx.req.socket.remoteAddress, ctx.get('X-Forwarded-For') || undefined, options.trustedProxyHops);
      takes.push([client, await store.take(`client:${address}`, client)]);
    }
    const from = payer && takes.every(([, take]) => take.allowed) && options.isPaid(ctx.method, ctx.path) ? payerOf(ctx.get('PAYMENT-SIGNATURE')) : undefined;
    if (payer && from) takes.push([payer, await store.take(payerKey(from), payer)]);

    ctx.set('RateLimit-Policy', takes.map(([policy]) => `"${policy.name}";q=${policy.burst};w=${Math.ceil(policy.burst / policy.perSecond)}`).join(', '));
    ctx.set('RateLimit', takes.map(([policy, take]) => `"${policy.name}";r=${take.remaining};t=${Math.ceil(take.resetMs / 1000)}`).join(', '));
    const denied = takes.filter(([, take]) => !take.allowed);
    if (denied.length) throw rateLimited(denied.map(([policy, take]) => [policy === client ? 'this client address' : 'this payer', take]));
    await next();
  };
}

/**
 * Takes one token from the payer bucket of a payment in the PAYMENT-SIGNATURE encoding (what the
 * MCP server hands the payment processor), or throws rate_limited. A payment that doesn't decode
 * costs nothing here: the processor refuses it without asking the facilitator.
 */
export type PayerLimit = (paymentHeader: string) => Promise<void>;

/** The payer limit for transports without headers (MCP): the same store, policy and key as the middleware's. */
export function payerLimit(store: BucketStore, payer: BucketPolicy): PayerLimit {
  return async (paymentHeader) => {
    const from = payerOf(paymentHeader);
    if (!from) return;
    const take = await store.take(payerKey(from), payer);
    if (!take.allowed) throw rateLimited([['this payer', take]]);
  };
}

/** One key per payer, whichever transport its payment came over. */
const payerKey = (from: string) => `payer:${from}`;

function rateLimited(denied: [who: string, take: Take][]): AppError {
  const seconds = Math.max(1, Math.ceil(Math.max(...denied.map(([, take]) => take.retryAfterMs)) / 1000));
  const who = denied.map(([name]) => name).join(' and ');
  return new AppError('rate_limited', `Too many requests from ${who}; retry after ${seconds} s.`, { retryAfterSeconds: seconds });
}

function payerOf(paymentHeader: string): string | undefined {
  if (!paymentHeader) return undefined;
  try {
    return decodePaymentSignature(paymentHeader).authorization.from.toLowerCase();
  } catch {
    return undefined;
  }
}
