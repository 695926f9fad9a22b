/**
 * PDF's object syntax (ISO 32000-1 §7.3) read from text, as data: numbers, names, strings,
 * arrays, dictionaries and indirect references; nothing else (no operators, no content streams).
 * The text is the file read as latin1, so an offset in it is an offset in the bytes. Nesting is
 * bounded (MAX_NESTING) and every step moves forward, so a parse is linear in what it reads.
 */
export type PdfValue =
  | number
  | boolean
  | null
  | { kind: 'name'; name: string }
  | { kind: 'string'; text: string }
  | { kind: 'ref'; num: number; gen: number }
  | { kind: 'array'; items: PdfValue[] }
  | { kind: 'dict'; entries: Map<string, PdfValue> };

export type PdfDict = Extract<PdfValue, { kind: 'dict' }>;

const MAX_NESTING = 32;
const DELIMITER = /[\s()<>[\]{}/%]/;
const WHITE = /\s/;

export class PdfSyntaxError extends Error {}

/** The value starting at `at` (white space and comments skipped first), and where it ends. */
export function parseValue(text: string, at: number, depth = 0): { value: PdfValue; end: number } {
  if (depth > MAX_NESTING) throw new PdfSyntaxError('nested too deep');
  at = skipSpace(text, at);
  const char = text[at];
  if (char === undefined) throw new PdfSyntaxError('unexpected end');
  if (char === '/') {
    const end = tokenEnd(text, at + 1);
    return { value: { kind: 'name', name: decodeName(text.slice(at + 1, end)) }, end };
  }
  if (char === '(') return literalString(text, at);
  if (char === '<' && text[at + 1] === '<') return dictionary(text, at + 2, depth);
  if (char === '<') {
    const end = text.indexOf('>', at);
    if (end < 0) throw new PdfSyntaxError('unterminated hex string');
    const hex = text.slice(at + 1, end).replace(/\s+/g, '');
    return {
      value: { kind: 'string', text: Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex').toString('latin1') },
      end: end + 1,
    };
  }
  if (char === '[') {
    const items: PdfValue[] = [];
    let cursor = at + 1;
    for (;;) {
      cursor = skipSpace(text, cursor);
      if (text[cursor] === ']') return { value: { kind: 'array', items }, end: cursor + 1 };
      if (text[cursor] === 'R' && tokenEnd(text, cursor) === cursor + 1 && asReference(items)) {
        cursor++;
        continue;
      }
      const item = parseValue(text, cursor, depth + 1);
      items.push(item.value);
      cursor = item.end;
      if (cursor >= text.length) throw new PdfSyntaxError('unterminated array');
    }
  }
  const end = tokenEnd(text, at);
  if (end === at) throw new PdfSyntaxError(`unexpected ${JSON.stringify(char)}`);
  const token = text.slice(at, end);
  if (token === 'true' || token === 'false') return { value: token === 'true', end };
  if (token === 'null') return { value: null, end };
  const number = Number(token);
  if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(token) && Number.isFinite(number)) return { value: number, end };
  // A keyword where a value belongs (R handled by the caller, endobj, stream): read as null.
  return { value: null, end };
}

/** The dictionary after "<<": keys and values up to ">>"; a reference "n g R" is one value. */
function dictionary(text: string, at: number, depth: number): { value: PdfValue; end: number } {
  const entries = new Map<string, PdfValue>();
  let cursor = at;
  for (;;) {
    cursor = skipSpace(text, cursor);
    if (text[cursor] === '>' && text[cursor + 1] === '>') return { value: { kind: 'dict', entries }, end: cursor + 2 };
    if (text[cursor] !== '/') throw new PdfSyntaxError('a dictionary key is not a name');
    const keyEnd = tokenEnd(text, cursor + 1);
    const key = decodeName(text.slice(cursor + 1, keyEnd));
    const item = parseValue(text, keyEnd, depth + 1);
    const ref = referenceAfter(text, item);
    entries.set(key, ref?.value ?? item.value);
    cursor = ref?.end ?? item.end;
  }
}

/** "n g R" in an array: the two numbers already pushed become one reference. */
function asReference(items: PdfValue[]): boolean {
  const gen = items[items.length - 1];
  const num = items[items.length - 2];
  if (typeof num !== 'number' || typeof gen !== 'number') return false;
  items.length -= 2;
  items.push({ kind: 'ref', num, gen });
  return true;
}

/** A number followed by "g R": a reference (dictionary values are read one at a time). */
function referenceAfter(text: string, item: { value: PdfValue; end: number }) {
  if (typeof item.value !== 'number') return undefined;
  const match = /^\s+(\d+)\s+R(?=[\s/<>[\]()]|$)/.exec(text.slice(item.end, item.end + 24));
  return match
    ? { value: { kind: 'ref', num: item.value, gen: Number(match[1]) } as PdfValue, end: item.end + match[0].length }
    : undefined;
}

function literalString(text: string, at: number): { value: PdfValue; end: number } {
  let nesting = 1;
  let out = '';
  let cursor = at + 1;
  for (; cursor < text.length && nesting > 0; cursor++) {
    const char = text[cursor]!;
    if (char === '\\') {
      cursor++;
      const next = text[cursor] ?? '';
      const escapes: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
      if (/[0-7]/.test(next)) {
        const octal = /^[0-7]{1,3}/.exec(text.slice(cursor, cursor + 3))![0];
        out += String.fromCharCode(parseInt(octal, 8) & 0xff);
        cursor += octal.length - 1;
      } else if (next === '\r' || next === '\n') {
        if (next === '\r' && text[cursor + 1] === '\n') cursor++;
      } else out += escapes[next] ?? next;
      continue;
    }
    if (char === '(') nesting++;
    else if (char === ')' && --nesting === 0) break;
    out += char;
  }
  if (nesting > 0) throw new PdfSyntaxError('unterminated string');
  return { value: { kind: 'string', text: out }, end: cursor + 1 };
}

export function skipSpace(text: string, at: number): number {
  while (at < text.length) {
    const char = text[at]!;
    if (char === '%') {
      while (at < text.length && text[at] !== '\n' && text[at] !== '\r') at++;
    } else if (WHITE.test(char) || char === '\0') at++;
    else break;
  }
  return at;
}

function tokenEnd(text: string, at: number): number {
  while (at < text.length && !DELIMITER.test(text[at]!)) at++;
  return at;
}

/** A name's #xx escapes (ISO 32000-1 §7.3.5), so /Embedded#46ile is /EmbeddedFile. */
const decodeName = (raw: string) =>
  raw.includes('#')
    ? raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : raw;

export const isDict = (value: PdfValue | undefined): value is PdfDict =>
  typeof value === 'object' && value !== null && value.kind === 'dict';

export const nameOf = (value: PdfValue | undefined): string | undefined =>
  typeof value === 'object' && value !== null && value.kind === 'name' ? value.name : undefined;
