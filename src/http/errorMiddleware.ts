import type { Middleware } from 'koa';
import { AppError, InputRejected, internalError } from '../errors.js';
import { BODY_ENCODINGS } from './bodyEncoding.js';
import { httpAnswerOf } from './errorAnswers.js';

export type ErrorLogger = (error: unknown, context: { method: string; path: string; status: number }) => void;

/**
 * The one place where failures become HTTP answers: every AppError is rendered as
 * { error: { code, message, issues? } } with the status and headers of errorAnswers.ts; anything
 * else is a 500 whose details stay in the log. Handlers return their answers instead of writing
 * them (answer.ts), so a failure never finds a success header to take along.
 */
export function errorMiddleware(logError: ErrorLogger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const error = toAppError(thrown);
      const { status, headers } = httpAnswerOf(error);
      if (status >= 500) logError(thrown, { method: ctx.method, path: ctx.path, status });
      ctx.status = status;
      ctx.set(headers);
      ctx.body = error.toBody();
    }
  };
}

/** Maps the errors thrown by the body parser (co-body / raw-body) onto our codes. */
export function toAppError(thrown: unknown): AppError {
  if (thrown instanceof AppError) return thrown;
  const error = thrown as { status?: number; type?: string; message?: string; limit?: number };
  if (error?.type === 'entity.too.large' || error?.status === 413) {
    return new AppError('payload_too_large', `The request body is larger than the limit of ${error.limit ?? 'the configured'} bytes.`);
  }
  if (error?.type === 'encoding.unsupported' || error?.status === 415) {
    return new AppError('unsupported_media_type', `The request body encoding is not supported; send ${BODY_ENCODINGS}.`);
  }
  if (typeof error?.message === 'string' && error.message.includes('forbidden prototype property')) {
    const issue = { path: '', code: 'forbidden_property', message: 'the key "__proto__" is not allowed anywhere in the body' };
    return new InputRejected('validation_failed', 'The request body is invalid: the key "__proto__" is not allowed.', [issue]);
  }
  if (error?.status === 400) {
    return new AppError('invalid_json', 'The request body is not valid JSON (an object was expected).');
  }
  return internalError(thrown);
}
