import coBody from 'co-body';
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
function jsonText(limitBytes: number): Middleware {
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

/** The methods koa-body reads a body for (its parsedMethods' default); jsonBytes reads the same. */
const READ_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * jsonText's body left as bytes: ctx.request.body is a Uint8Array, read within `limitBytes` after
 * any gzip/deflate/br decoding (the same 415/413/400 as jsonText), or undefined for a method
 * jsonText doesn't read; the compute pool decodes it as jsonText would have (requestJson.ts
 * jsonTextOf) and parses it. The event loop neither decodes the text nor copies it into the
 * worker's message: a maximal body's text was young garbage that every scavenge during a flood
 * copied while its request waited for a worker (reliability 11, docs/reliability.md).
 */
export function jsonBytes(limitBytes: number): Middleware {
  return async (ctx, next) =>
    requireJson(ctx, async () => {
      if (READ_METHODS.has(ctx.method)) {
        try {
          // encoding null: co-body hands raw-body's Buffer back undecoded (co-body/lib/text.js).
          const bytes = (await coBody.text(ctx, { limit: limitBytes, encoding: null as unknown as string })) as Buffer;
          ctx.request.body = bytes as unknown as typeof ctx.request.body;
        } catch (error) {
          throw bodyReadError(error);
        }
      }
      await next();
    });
}

/**
 * jsonText, then parsed on the event loop with the operations' strict parser (the same errors):
 * for what is not an operation's body (the development preview).
 */
export function jsonBody(limitBytes: number): Middleware {
  const read = jsonText(limitBytes);
  return async (ctx, next) =>
    read(ctx, async () => {
      ctx.request.body = parseRequestJson(ctx.request.body as string) as typeof ctx.request.body;
      await next();
    });
}
