import type { Context } from 'koa';

/**
 * What a route handler returns instead of writing to the response: the router writes it for a free
 * route, the payment gate writes it only after settlement for a paid one. A handler that fails
 * throws, and has written nothing that the error answer could carry along.
 */
export interface Answer {
  /** 200 unless said otherwise; a paid route's answer is settled only when it is a 200. */
  status?: number;
  /** Koa's default for the body (JSON for objects) unless given. */
  contentType?: string;
  headers?: Record<string, string>;
  body: unknown;
}

export function writeAnswer(ctx: Context, answer: Answer): void {
  ctx.status = answer.status ?? 200;
  if (answer.headers) ctx.set(answer.headers);
  ctx.body = answer.body;
  if (answer.contentType) ctx.type = answer.contentType;
}

/** A paid answer as the bytes that are settled for, stored for re-sends and sent. */
export interface PaidAnswer {
  contentType: string;
  body: Buffer;
  headers: Record<string, string>;
}

export function paidAnswerOf(answer: Answer): PaidAnswer {
  const { body } = answer;
  const headers = answer.headers ?? {};
  if (Buffer.isBuffer(body)) return { contentType: answer.contentType ?? 'application/octet-stream', body, headers };
  if (typeof body === 'string') return { contentType: answer.contentType ?? 'text/plain; charset=utf-8', body: Buffer.from(body), headers };
  return { contentType: answer.contentType ?? 'application/json; charset=utf-8', body: Buffer.from(JSON.stringify(body)), headers };
}
