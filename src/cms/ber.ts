import { DER_LIMITS, malformed, readHeader } from './der.js';

/**
 * BER as Italian signing tools write it (`30 80 …`: indefinite lengths closed by 00 00, the content
 * as a constructed OCTET STRING of segments) re-encoded as the DER that der.ts reads: every length
 * definite, every constructed OCTET STRING one primitive OCTET STRING. One pass over the input and
 * one over the output, so the work is linear in the size; the tree is bounded like der.ts's (depth,
 * element count), and an indefinite length that never ends, a length past what contains it or a
 * nesting deeper than the limit is refused as p7m_malformed. A DER input comes out byte for byte.
 */
interface Node {
  tag: number;
  /** A primitive's value (a subarray, nothing copied), or the segments of a flattened OCTET STRING. */
  parts: Uint8Array[];
  children: Node[] | undefined;
  /** The encoded length of the value in DER. */
  size: number;
}

const OCTET_STRING = 0x04;
const CONSTRUCTED_OCTET_STRING = 0x24;

export function berToDer(bytes: Uint8Array): Uint8Array {
  const budget = { elements: DER_LIMITS.elements };
  const { node, next } = readNode(bytes, 0, bytes.byteLength, 0, budget);
  if (next !== bytes.byteLength) throw malformed('bytes after the envelope');
  const out = new Uint8Array(encodedSize(node));
  write(node, out, 0);
  return out;
}

function readNode(
  bytes: Uint8Array,
  offset: number,
  limit: number,
  depth: number,
  budget: { elements: number },
): { node: Node; next: number } {
  if (depth > DER_LIMITS.depth) throw malformed(`nested deeper than ${DER_LIMITS.depth} levels`);
  if (--budget.elements < 0) throw malformed(`more than ${DER_LIMITS.elements} elements`);
  const { tag, start, length } = readHeader(bytes, offset, limit);
  const constructed = (tag & 0x20) !== 0;
  if (length === null) {
    if (!constructed) throw malformed('an indefinite length on a primitive element');
    return readChildren(bytes, tag, start, limit, depth, budget, true);
  }
  const end = start + length;
  if (end > limit) throw malformed('truncated (an element is longer than what contains it)');
  if (!constructed) {
    return { node: { tag, parts: [bytes.subarray(start, end)], children: undefined, size: length }, next: end };
  }
  const read = readChildren(bytes, tag, start, end, depth, budget, false);
  if (read.next !== end) throw malformed('an element is longer than its content');
  return read;
}

/** The children up to `limit` (definite) or up to the end-of-contents octets 00 00 (indefinite). */
function readChildren(
  bytes: Uint8Array,
  tag: number,
  start: number,
  limit: number,
  depth: number,
  budget: { elements: number },
  indefinite: boolean,
): { node: Node; next: number } {
  const children: Node[] = [];
  let at = start;
  for (;;) {
    if (indefinite) {
      if (at + 2 > limit) throw malformed('truncated (an indefinite length never ends)');
      if (bytes[at] === 0 && bytes[at + 1] === 0) {
        at += 2;
        break;
      }
    } else if (at >= limit) break;
    const child = readNode(bytes, at, limit, depth + 1, budget);
    children.push(child.node);
    at = child.next;
  }
  return { node: tag === CONSTRUCTED_OCTET_STRING ? flatten(children) : constructedNode(tag, children), next: at };
}

function constructedNode(tag: number, children: Node[]): Node {
  let size = 0;
  for (const child of children) size += encodedSize(child);
  return { tag, parts: [], children, size };
}

/** A constructed OCTET STRING's segments (themselves flattened already) as one primitive OCTET STRING. */
function flatten(segments: Node[]): Node {
  const parts: Uint8Array[] = [];
  let size = 0;
  for (const segment of segments) {
    if (segment.tag !== OCTET_STRING) throw malformed('a content segment is not an OCTET STRING');
    for (const part of segment.parts) parts.push(part);
    size += segment.size;
  }
  return { tag: OCTET_STRING, parts, children: undefined, size };
}

const lengthBytes = (size: number) =>
  size < 0x80 ? 1 : size < 0x100 ? 2 : size < 0x10000 ? 3 : size < 0x1000000 ? 4 : 5;

const encodedSize = (node: Node) => 1 + lengthBytes(node.size) + node.size;

function write(node: Node, out: Uint8Array, offset: number): number {
  out[offset++] = node.tag;
  const count = lengthBytes(node.size) - 1;
  if (count === 0) out[offset++] = node.size;
  else {
    out[offset++] = 0x80 | count;
    for (let shift = (count - 1) * 8; shift >= 0; shift -= 8) out[offset++] = Math.floor(node.size / 2 ** shift) & 0xff;
  }
  if (node.children) for (const child of node.children) offset = write(child, out, offset);
  else
    for (const part of node.parts) {
      out.set(part, offset);
      offset += part.length;
    }
  return offset;
}
