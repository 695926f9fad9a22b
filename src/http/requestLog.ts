import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../logger.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** One log line per request, with a request id that is echoed in X-Request-Id. */
export function requestLog(
  logger: Logger,
  observe?: (route: string, method: string, status: number, seconds: number) => void,
): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const id = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      observe?.(ctx._matchedRoute ? String(ctx._matchedRoute) : 'unmatched', ctx.method, ctx.status, ms / 1000);
      logger.info(
        {
          reqId: id,
          method: ctx.method,
          path: ctx.path,
          route: ctx._matchedRoute,
          status: ctx.status,
          ms: Math.round(ms * 10) / 10,
          ...ctx.state.logFields,
        },
        'request',
      );
    }
  };
}
