import { AppError } from '../errors.js';

/** The Content-Encodings a request body may carry (koa-body decodes them through `inflation`). */
export const BODY_ENCODINGS = 'identity, gzip, deflate or br';

/**
 * zlib's and brotli's decoding failures (corrupt or truncated data, raw deflate without its zlib
 * header, gzip labelled br): zlib codes are Z_*, brotli's ERR__ERROR_* / ERR_BROTLI_*, and both
 * carry a numeric errno. They reach us from the body stream, so they are the client's bytes.
 */
export function isBodyDecodingError(error: unknown): boolean {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  return typeof code === 'string' && typeof errno === 'number' && /^(Z_|ERR__ERROR_|ERR_BROTLI)/.test(code);
}

export const invalidBodyEncoding = (cause: unknown): AppError =>
  new AppError('invalid_body_encoding', 'The request body could not be decoded with its Content-Encoding (corrupt, truncated or mislabelled compressed data).', { cause });

/** Body parser failures: decoding errors become ours, the rest go on to errorMiddleware's mapping. */
export function bodyReadError(error: unknown): unknown {
  return isBodyDecodingError(error) ? invalidBodyEncoding(error) : error;
}
