import coBody from 'co-body';
import type { Middleware } from 'koa';
import { AppError } from '../errors.js';
import { bodyReadError } from './bodyEncoding.js';

/**
 * A document body (an inbound e-invoice): one of `mediaTypes` or a 415 before a byte is read, then
 * the bytes, after any gzip/deflate/br decoding, within `limitBytes` (413 payload_too_large
 * beyond, checked while reading). Leaves ctx.state.bodyBytes and ctx.state.bodyMediaType.
 */
export function documentBody(mediaTypes: readonly string[], limitBytes: number): Middleware {
  return async (ctx, next) => {
    const mediaType = ctx.is(...mediaTypes);
    if (!mediaType) {
      throw new AppError('unsupported_media_type', `Send the document as the request body with Content-Type ${mediaTypes.join(', ')}.`);
    }
    try {
      // encoding null: co-body hands raw-body's Buffer back undecoded (co-body/lib/text.js).
      ctx.state.bodyBytes = (await coBody.text(ctx, { limit: limitBytes, encoding: null as unknown as string })) as unknown as Buffer;
    } catch (error) {
      throw bodyReadError(error);
    }
    ctx.state.bodyMediaType = mediaType;
    await next();
  };
}
