import bourne from '@hapi/bourne';
import { forbiddenProtoKey, invalidJson } from '../errors.js';

// RFC 7159 whitespace, then an object or an array: what a strict JSON body parser accepts.
const STRICT_JSON = /^[\x20\x09\x0a\x0d]*(\[|\{)/;

/**
 * A JSON body's text from its bytes (http/jsonBody.ts jsonBytes), decoded as koa-body decodes
 * jsonText's: UTF-8 with each invalid sequence as U+FFFD (Node's decoder, which raw-body's
 * iconv-lite uses too) and a leading byte order mark dropped; no body, no text.
 */
export function jsonTextOf(bytes: Uint8Array | undefined): string {
  if (!bytes) return '';
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * A JSON request body from its text, parsed as co-body's strict mode always parsed it (an empty
 * body is {}, anything else must be an object or array, `__proto__` refused anywhere), with typed
 * errors: invalid_json, or validation_failed naming the `__proto__` key. Each failure is told
 * apart by the step that failed, never by an error's message.
 */
export function parseRequestJson(text: string): unknown {
  if (!text) return {};
  if (!STRICT_JSON.test(text)) throw invalidJson();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidJson();
  }
  // JSON.parse keeps a "__proto__" key (however escaped) as an own property; bourne's scan refuses it.
  try {
    bourne.scan(value, { protoAction: 'error' });
  } catch {
    throw forbiddenProtoKey();
  }
  return value;
}

/**
 * A JSON envelope whose member at `path` is an operation's body (an MCP tools/call's
 * params.arguments): the envelope parsed strictly like a body, the member taken out and handed
 * back as JSON text, so that the body is parsed and validated on the compute pool like an HTTP
 * body's text and the envelope that crosses back to the event loop is small.
 */
export function splitRequestJson(
  text: string,
  path: readonly string[],
): { envelope: unknown; member?: { text: string; isObject: boolean } } {
  const envelope = parseRequestJson(text);
  let holder: unknown = envelope;
  for (const key of path.slice(0, -1)) {
    if (!holder || typeof holder !== 'object' || Array.isArray(holder)) return { envelope };
    holder = (holder as Record<string, unknown>)[key];
  }
  const last = path[path.length - 1]!;
  if (!holder || typeof holder !== 'object' || Array.isArray(holder) || !Object.hasOwn(holder, last))
    return { envelope };
  const value = (holder as Record<string, unknown>)[last];
  delete (holder as Record<string, unknown>)[last];
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  return { envelope, member: { text: JSON.stringify(value), isObject } };
}
