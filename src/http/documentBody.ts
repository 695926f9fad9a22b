import coBody from 'co-body';
import type { Middleware } from 'koa';
import { AppError } from '../errors.js';
import type { DocumentBody, Operation } from '../operations/operation.js';
import { bodyReadError } from './bodyEncoding.js';

type DocumentReader = NonNullable<NonNullable<Operation['request']>['document']>;

/**
 * The body of a document row (operations/operation.ts `document`): one of its media types, read as
 * bytes after any gzip/deflate/br decoding within `limitBytes` (413 payload_too_large beyond,
 * checked while reading); any other media type is a 415 before a byte is read. Leaves the document,
 * with the query parameters, in ctx.state.document; nothing here reads what the bytes say (the
 * row's parseDocument does, on the compute pool).
 */
export function documentBody(reader: DocumentReader): Middleware {
  return async (ctx, next) => {
    const mediaType = ctx.is(...reader.mediaTypes);
    if (!mediaType) {
      throw new AppError(
        'unsupported_media_type',
        `Send the document as the request body with Content-Type ${reader.mediaTypes.join(', ')}.`,
      );
    }
    let bytes: Buffer;
    try {
      // encoding null: co-body hands raw-body's Buffer back undecoded (co-body/lib/text.js).
      bytes = (await coBody.text(ctx, {
        limit: reader.limitBytes,
        encoding: null as unknown as string,
      })) as unknown as Buffer;
    } catch (error) {
      throw bodyReadError(error);
    }
    const params = Object.fromEntries(
      Object.entries(ctx.query).flatMap(([key, value]) =>
        value === undefined ? [] : [[key, Array.isArray(value) ? value[0]! : value]],
      ),
    );
    const document: DocumentBody = { bytes, mediaType, params };
    ctx.state.document = document;
    return next();
  };
}
