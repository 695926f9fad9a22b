import { rejected } from '../errors.js';

/**
 * A small strict DER reader: tag, definite length, value, nothing else. Every read is bounded (the
 * caller's byte limit, nesting depth, element count) and every length is checked against what is
 * left, so a truncated or hostile envelope is refused before anything is taken from it. BER's
 * indefinite lengths are refused here: ber.ts re-encodes a BER envelope as DER before it is read.
 */
export interface Der {
  /** The identifier octet (class, constructed bit, tag number below 31). */
  tag: number;
  /** Where the value starts and ends in the buffer. */
  start: number;
  end: number;
  bytes: Uint8Array;
}

export const DER_LIMITS = { depth: 32, elements: 100_000 } as const;

export const malformed = (reason: string) =>
  rejected('p7m_malformed', `The signed envelope (.p7m) is not valid DER or BER: ${reason}.`, [
    { path: '', code: 'p7m_malformed', message: reason },
  ]);

export const isConstructed = (node: Der) => (node.tag & 0x20) !== 0;

/**
 * The identifier and length octets at `offset`: the tag, where the value starts, and its length
 * (null for BER's indefinite length, 0x80). Shared by this reader and ber.ts, so both refuse the
 * same malformed headers the same way; the length is not yet checked against what contains it.
 */
export function readHeader(
  bytes: Uint8Array,
  offset: number,
  limit: number,
): { tag: number; start: number; length: number | null } {
  if (offset + 2 > limit) throw malformed('truncated (an element is cut off)');
  const tag = bytes[offset]!;
  if ((tag & 0x1f) === 0x1f) throw malformed('a multi-byte tag');
  const first = bytes[offset + 1]!;
  const start = offset + 2;
  if (first === 0x80) return { tag, start, length: null };
  if (first < 0x80) return { tag, start, length: first };
  const count = first & 0x7f;
  if (count > 4) throw malformed('a length of more than 4 bytes');
  if (start + count > limit) throw malformed('truncated (a length is cut off)');
  let length = 0;
  for (let at = 0; at < count; at++) length = length * 256 + bytes[start + at]!;
  return { tag, start: start + count, length };
}

/** The element at `offset`, its length checked against `limit` (the end of its parent). */
export function readDer(bytes: Uint8Array, offset: number, limit: number): Der {
  const { tag, start, length } = readHeader(bytes, offset, limit);
  if (length === null) throw malformed('an indefinite length (BER, not DER)');
  const end = start + length;
  if (end > limit) throw malformed('truncated (an element is longer than what contains it)');
  return { tag, start, end, bytes };
}

/** The children of a constructed element, at most DER_LIMITS.elements in all (`budget` counts them). */
export function childrenOf(node: Der, budget: { elements: number }): Der[] {
  if (!isConstructed(node)) throw malformed('a primitive element where a constructed one belongs');
  const out: Der[] = [];
  let at = node.start;
  while (at < node.end) {
    if (--budget.elements < 0) throw malformed(`more than ${DER_LIMITS.elements} elements`);
    const child = readDer(node.bytes, at, node.end);
    out.push(child);
    at = child.end;
  }
  return out;
}

export const valueOf = (node: Der): Uint8Array => node.bytes.subarray(node.start, node.end);

/** An OBJECT IDENTIFIER's dotted text. */
export function oidOf(node: Der): string {
  if (node.tag !== 0x06 || node.end === node.start) throw malformed('an object identifier was expected');
  const value = valueOf(node);
  const parts: number[] = [];
  let current = 0;
  for (const byte of value) {
    current = current * 128 + (byte & 0x7f);
    if (current > Number.MAX_SAFE_INTEGER / 256) throw malformed('an object identifier out of range');
    if ((byte & 0x80) === 0) {
      if (parts.length === 0)
        parts.push(current < 80 ? Math.floor(current / 40) : 2, current < 80 ? current % 40 : current - 80);
      else parts.push(current);
      current = 0;
    }
  }
  return parts.join('.');
}
