import type { Middleware } from 'koa';
import { AppError, internalError } from '../errors.js';

export type ErrorLogger = (error: unknown, context: { method: string; path: string; status: number }) => void;

/**
 * The one place where failures become HTTP answers: every AppError is rendered as
 * { error: { code, message, issues? } }; anything else is a 500 whose details stay in the log.
 */
export function errorMiddleware(logError: ErrorLogger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const error = toAppError(thrown);
      if (error.status >= 500) logError(thrown, { method: ctx.method, path: ctx.path, status: error.status });
      ctx.status = error.status;
      // Headers a handler set for a successful answer don't describe an error body.
      ctx.remove('Content-Disposition');
      ctx.remove('X-Page-Count');
      ctx.set(error.headers);
      ctx.body = error.toBody();
    }
  };
}

/** Maps the errors thrown by the body parser (co-body / raw-body) onto our codes. */
export function toAppError(thrown: unknown): AppError {
  if (thrown instanceof AppError) return thrown;
  const error = thrown as { status?: number; type?: string; message?: string; limit?: number };
  if (error?.type === 'entity.too.large' || error?.status === 413) {
    return new AppError(413, 'payload_too_large', `The request body is larger than the limit of ${error.limit ?? 'the configured'} bytes.`);
  }
  if (error?.type === 'encoding.unsupported' || error?.status === 415) {
    return new AppError(415, 'unsupported_media_type', 'The request body encoding is not supported; send identity, gzip or deflate.');
  }
  if (typeof error?.message === 'string' && error.message.includes('forbidden prototype property')) {
    return new AppError(400, 'validation_failed', 'The request body is invalid: the key "__proto__" is not allowed.', {
      issues: [{ path: '', code: 'forbidden_property', message: 'the key "__proto__" is not allowed anywhere in the body' }],
    });
  }
  if (error?.status === 400) {
    return new AppError(400, 'invalid_json', 'The request body is not valid JSON (an object was expected).');
  }
  return internalError(thrown);
}
