import bourne from '@hapi/bourne';
import { forbiddenProtoKey, invalidJson } from '../errors.js';

// RFC 7159 whitespace, then an object or an array: what a strict JSON body parser accepts.
const STRICT_JSON = /^[\x20\x09\x0a\x0d]*(\[|\{)/;

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
