import coBody from 'co-body';
import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { AppError } from '../errors.js';
import { bodyReadError } from './bodyEncoding.js';

const requireJson: Middleware = async (ctx, next) => {
  if (!ctx.is('application/json')) {
    throw new AppError('unsupported_media_type', 'Send the request body as JSON with Content-Type: application/json.');
  }
  await next();
};

/**
 * JSON bodies only: a POST without `application/json` is a 415 before a byte is read; the body is
 * parsed strictly (an object or array) within `limitBytes`, after any gzip/deflate/br decoding
 * (undecodable bytes are the client's: 400 invalid_body_encoding, bodyEncoding.ts).
 */
export function jsonBody(limitBytes: number): Middleware {
  const parse = koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: limitBytes,
    urlencoded: false,
    text: false,
    multipart: false,
    onError: (error) => {
      throw bodyReadError(error);
    },
  });
  return async (ctx, next) => requireJson(ctx, () => parse(ctx, next));
}

/**
 * The same checks and limits as jsonBody, reading the decoded body as text into
 * `ctx.state.bodyText` without parsing it: for routes whose JSON a worker thread parses
 * (compute/strictJson.ts parses exactly as koa-body does).
 */
export function jsonBodyText(limitBytes: number): Middleware {
  return async (ctx, next) =>
    requireJson(ctx, async () => {
      try {
        ctx.state.bodyText = await coBody.text(ctx, { limit: limitBytes, encoding: 'utf-8' });
      } catch (error) {
        throw bodyReadError(error);
      }
      await next();
    });
}
