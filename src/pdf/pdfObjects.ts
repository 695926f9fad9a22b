import { constants, inflateSync } from 'node:zlib';
import { isDict, nameOf, parseValue, PdfSyntaxError, skipSpace, type PdfDict, type PdfValue } from './pdfValues.js';

/** How much of a PDF is looked at: objects indexed, bytes of one decompressed stream, and of all together. */
export interface PdfScanBounds {
  maxStreams: number;
  maxStreamBytes: number;
  maxInflatedBytes: number;
}

/**
 * A PDF's indirect objects, found the way a repairing reader finds them: every "n g obj" in the
 * bytes (a later one replaces an earlier one, as an incremental update does) and every object
 * inside an object stream (/Type /ObjStm, PDF 1.5), so a file is read whether or not its xref table
 * or xref stream is right. Objects are parsed when asked for; object streams are inflated once,
 * when an object is not found outside them. Every inflation is bounded (one stream, all streams).
 */
interface Located {
  text: string;
  at: number;
  /** Only an object outside an object stream can be a stream (ISO 32000-1 §7.5.7). */
  direct: boolean;
}

export class PdfObjects {
  private readonly located = new Map<number, Located>();
  /** Where each object starts, per text (the file's, each object stream's), in file order. */
  private readonly starts = new Map<string, { at: number; num: number }[]>();
  private readonly parsed = new Map<number, { value: PdfValue; end: number } | null>();
  private objectStreamsRead = false;
  private inflated = 0;

  constructor(
    private readonly text: string,
    private readonly bytes: Buffer,
    private readonly bounds: PdfScanBounds,
  ) {
    const objects = /(\d+)\s+\d+\s+obj\b/g;
    let seen = 0;
    for (let match = objects.exec(text); match !== null; match = objects.exec(text)) {
      if (++seen > bounds.maxStreams) break;
      this.locate(Number(match[1]), { text, at: match.index + match[0].length, direct: true });
    }
  }

  private locate(num: number, where: Located): void {
    this.located.set(num, where);
    const starts = this.starts.get(where.text) ?? [];
    starts.push({ at: where.at, num });
    this.starts.set(where.text, starts);
  }

  /**
   * The objects whose text holds `pattern` (a key or name that marks what is looked for), found
   * with one search per text and a binary search per match instead of parsing every object.
   */
  objectsMatching(pattern: RegExp, { direct = false } = {}): number[] {
    if (!direct) this.readObjectStreams();
    const found = new Set<number>();
    for (const [text, starts] of this.starts) {
      const search = new RegExp(pattern.source, 'g');
      for (let match = search.exec(text); match !== null; match = search.exec(text)) {
        let low = 0;
        let high = starts.length - 1;
        while (low < high) {
          const middle = (low + high + 1) >> 1;
          if (starts[middle]!.at <= match.index) low = middle;
          else high = middle - 1;
        }
        const owner = starts[low];
        if (owner && owner.at <= match.index && this.located.get(owner.num)?.at === owner.at) found.add(owner.num);
      }
    }
    return [...found];
  }

  get(num: number): PdfValue | undefined {
    if (!this.located.has(num)) this.readObjectStreams();
    return this.parse(num)?.value;
  }

  /** Follows references (a bounded chain) to the value they name. */
  resolve(value: PdfValue | undefined): PdfValue | undefined {
    for (let hops = 0; hops < 16; hops++) {
      if (typeof value !== 'object' || value === null || value.kind !== 'ref') return value;
      value = this.get(value.num);
    }
    return undefined;
  }

  dict(value: PdfValue | undefined): PdfDict | undefined {
    const resolved = this.resolve(value);
    return isDict(resolved) ? resolved : undefined;
  }

  /** The document catalog: the last trailer's (or xref stream's) /Root, else the last /Type /Catalog. */
  catalog(): PdfDict | undefined {
    let root: PdfDict | undefined;
    const trailers = /trailer\s*<</g;
    for (let match = trailers.exec(this.text); match !== null; match = trailers.exec(this.text)) {
      const trailer = this.tryParse(this.text, match.index + match[0].length - 2);
      root = this.dict(isDict(trailer) ? trailer.entries.get('Root') : undefined) ?? root;
    }
    for (const num of this.objectsMatching(/\/XRef\b/, { direct: true })) {
      const value = this.parse(num)?.value;
      if (isDict(value) && nameOf(value.entries.get('Type')) === 'XRef')
        root = this.dict(value.entries.get('Root')) ?? root;
    }
    if (root) return root;
    for (const num of this.objectsMatching(/\/Catalog\b/)) {
      const value = this.parse(num)?.value;
      if (isDict(value) && nameOf(value.entries.get('Type')) === 'Catalog') root = value;
    }
    return root;
  }

  /** The stream object `num`: its dictionary and decoded data, or undefined (not a stream, unknown filter, over a bound). */
  stream(num: number): { dict: PdfDict; data: Buffer } | undefined {
    const where = this.located.get(num);
    const read = this.parse(num);
    if (!where?.direct || !read || !isDict(read.value)) return undefined;
    const after = /^\s*stream(\r\n|\n|\r)/.exec(this.text.slice(read.end, read.end + 32));
    if (!after) return undefined;
    const start = read.end + after[0].length;
    const raw = this.bytes.subarray(start, start + this.streamLength(read.value, start));
    const data = this.decode(read.value, raw);
    return data ? { dict: read.value, data } : undefined;
  }

  private parse(num: number): { value: PdfValue; end: number } | undefined {
    const cached = this.parsed.get(num);
    if (cached !== undefined) return cached ?? undefined;
    const where = this.located.get(num);
    let read: { value: PdfValue; end: number } | null = null;
    if (where) {
      try {
        read = parseValue(where.text, where.at);
      } catch (error) {
        if (!(error instanceof PdfSyntaxError)) throw error;
      }
    }
    this.parsed.set(num, read);
    return read ?? undefined;
  }

  private tryParse(text: string, at: number): PdfValue | undefined {
    try {
      return parseValue(text, at).value;
    } catch (error) {
      if (error instanceof PdfSyntaxError) return undefined;
      throw error;
    }
  }

  /** /Length when it fits and "endstream" follows it, else up to the next "endstream". */
  private streamLength(dict: PdfDict, start: number): number {
    const length = this.resolve(dict.entries.get('Length'));
    if (typeof length === 'number' && length >= 0 && start + length <= this.bytes.length) {
      const next = skipSpace(this.text, start + length);
      if (this.text.startsWith('endstream', next)) return length;
    }
    const end = this.text.indexOf('endstream', start);
    return end < 0 ? 0 : end - start;
  }

  /** Unfiltered or FlateDecode (no predictor), inflated within both bounds; anything else undefined. */
  private decode(dict: PdfDict, data: Buffer): Buffer | undefined {
    const filter = this.resolve(dict.entries.get('Filter'));
    const filters = (typeof filter === 'object' && filter?.kind === 'array' ? filter.items : [filter])
      .map((item) => nameOf(this.resolve(item)))
      .filter((name) => name !== undefined);
    if (filters.length === 0) return data.length <= this.bounds.maxStreamBytes ? data : undefined;
    if (filters.length !== 1 || (filters[0] !== 'FlateDecode' && filters[0] !== 'Fl')) return undefined;
    const parms = this.dict(dict.entries.get('DecodeParms'));
    const predictor = this.resolve(parms?.entries.get('Predictor'));
    if (typeof predictor === 'number' && predictor > 1) return undefined;
    const room = Math.min(this.bounds.maxStreamBytes, this.bounds.maxInflatedBytes - this.inflated);
    if (room <= 0) return undefined;
    try {
      const out = inflateSync(data, { maxOutputLength: room, finishFlush: constants.Z_SYNC_FLUSH });
      this.inflated += out.length;
      return out;
    } catch {
      return undefined; // corrupt, or beyond the bound: not a file this service reads
    }
  }

  /** Indexes the objects inside every object stream (those not found outside one). */
  private readObjectStreams(): void {
    if (this.objectStreamsRead) return;
    this.objectStreamsRead = true;
    for (const num of this.objectsMatching(/\/ObjStm\b/, { direct: true })) {
      const head = this.parse(num)?.value;
      if (!isDict(head) || nameOf(head.entries.get('Type')) !== 'ObjStm') continue;
      const count = this.resolve(head.entries.get('N'));
      const first = this.resolve(head.entries.get('First'));
      if (typeof count !== 'number' || typeof first !== 'number') continue;
      const data = this.stream(num)?.data;
      if (!data) continue;
      const text = data.toString('latin1');
      const pairs = text.slice(0, first).trim().split(/\s+/).map(Number);
      for (let at = 0; at + 1 < pairs.length && at < 2 * count; at += 2) {
        if (this.located.size >= this.bounds.maxStreams) return;
        const inner = pairs[at]!;
        if (!this.located.has(inner)) this.locate(inner, { text, at: first + pairs[at + 1]!, direct: false });
      }
    }
  }
}
