import bourne from '@hapi/bourne';

// RFC 7159 whitespace, then an object or an array: what the body parser accepts (co-body, strict).
const STRICT_JSON = /^[\x20\x09\x0a\x0d]*(\[|\{)/;

/**
 * A JSON request body parsed exactly as koa-body (co-body, strict, `__proto__` refused) parses it
 * on the event loop, for bodies handed to a worker thread as text: an empty body is {}, anything
 * else must be an object or array. Failures carry status 400, as co-body's do, so that
 * errorMiddleware.ts's toAppError answers them identically (invalid_json, or validation_failed for
 * a `__proto__` key).
 */
export function parseStrictJson(text: string): unknown {
  if (!text) return {};
  try {
    if (!STRICT_JSON.test(text)) throw new SyntaxError('invalid JSON, only supports object and array');
    return bourne.parse(text, { protoAction: 'error' });
  } catch (error) {
    throw Object.assign(error as Error, { status: 400 });
  }
}
