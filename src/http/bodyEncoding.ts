import { AppError, invalidJson } from '../errors.js';

/** The Content-Encodings a request body may carry (koa-body decodes them through `inflation`). */
const BODY_ENCODINGS = 'identity, gzip, deflate or br';

/**
 * zlib's and brotli's decoding failures (corrupt or truncated data, raw deflate without its zlib
 * header, gzip labelled br): zlib codes are Z_*, brotli's ERR__ERROR_* / ERR_BROTLI_*, and both
 * carry a numeric errno. They reach us from the body stream, so they are the client's bytes.
 */
function isBodyDecodingError(error: unknown): boolean {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  return typeof code === 'string' && typeof errno === 'number' && /^(Z_|ERR__ERROR_|ERR_BROTLI)/.test(code);
}

const invalidBodyEncoding = (cause: unknown): AppError =>
  new AppError(
    'invalid_body_encoding',
    'The request body could not be decoded with its Content-Encoding (corrupt, truncated or mislabelled compressed data).',
    { cause },
  );

/**
 * The body reader's failures (koa-body → co-body → raw-body and inflation) as our errors, told
 * apart by their `type` and `status` fields: undecodable bytes, a body over the limit, an encoding
 * we don't read, and the other client-side read failures (a Content-Length that doesn't match).
 */
export function bodyReadError(thrown: unknown): unknown {
  if (thrown instanceof AppError) return thrown;
  if (isBodyDecodingError(thrown)) return invalidBodyEncoding(thrown);
  const error = thrown as { status?: number; type?: string; limit?: number };
  if (error?.type === 'entity.too.large' || error?.status === 413) {
    return new AppError(
      'payload_too_large',
      `The request body is larger than the limit of ${error.limit ?? 'the configured'} bytes.`,
      { cause: thrown },
    );
  }
  if (error?.type === 'encoding.unsupported' || error?.status === 415) {
    return new AppError(
      'unsupported_media_type',
      `The request body encoding is not supported; send ${BODY_ENCODINGS}.`,
      { cause: thrown },
    );
  }
  if (error?.status === 400) return invalidJson();
  return thrown;
}
