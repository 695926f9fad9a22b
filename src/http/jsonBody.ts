import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { AppError } from '../errors.js';
import { parseRequestJson } from '../operations/requestJson.js';
import { bodyReadError } from './bodyEncoding.js';

const requireJson: Middleware = async (ctx, next) => {
  if (!ctx.is('application/json')) {
    throw new AppError('unsupported_media_type', 'Send the request body as JSON with Content-Type: application/json.');
  }
  await next();
};

/**
 * JSON bodies only: a request without `application/json` is a 415 before a byte is read; koa-body
 * reads the body within `limitBytes`, after any gzip/deflate/br decoding, as text into
 * ctx.request.body without parsing it (an operation's body is parsed on the compute pool,
 * operations/operationJobs.ts). Read failures become AppErrors here (bodyEncoding.ts).
 */
export function jsonText(limitBytes: number): Middleware {
  const read = koaBody({
    json: false,
    text: true,
    textTypes: ['application/json'],
    textLimit: limitBytes,
    encoding: 'utf-8',
    urlencoded: false,
    multipart: false,
    onError: (error) => {
      throw bodyReadError(error);
    },
  });
  return async (ctx, next) => requireJson(ctx, () => read(ctx, next));
}

/**
 * jsonText, then parsed on the event loop with the operations' strict parser (the same errors):
 * for what is not an operation's body (MCP's JSON-RPC envelope, the development preview).
 */
export function jsonBody(limitBytes: number): Middleware {
  const read = jsonText(limitBytes);
  return async (ctx, next) =>
    read(ctx, async () => {
      ctx.request.body = parseRequestJson(ctx.request.body as string) as typeof ctx.request.body;
      await next();
    });
}
