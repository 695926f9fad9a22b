import type { Middleware } from 'koa';
import { AppError, internalError } from '../errors.js';
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

/** Our errors as they are; anything else is an internal error (its details stay in the log). */
const toAppError = (thrown: unknown): AppError => (thrown instanceof AppError ? thrown : internalError(thrown));
