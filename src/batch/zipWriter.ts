import { crc32, deflateRawSync } from 'node:zlib';

/**
 * A small ZIP writer (PKWARE APPNOTE 6.3, no ZIP64): entries are written in the order they are
 * added, each as its local header and data at once (so the archive could be streamed out entry by
 * entry), then the central directory. Deterministic: the same entries give the same bytes, because
 * every field comes from the entries (a fixed DOS time per entry, no extra fields, no comments).
 *
 * Our own rather than a library: what we need is ~100 lines over node:zlib (crc32, raw deflate),
 * and the common libraries (archiver, yazl, jszip) stamp the current time unless told otherwise and
 * bring stream machinery we don't use.
 */
export interface ZipEntryOptions {
  /** Deflate the data (text); stored as is otherwise (PDFs, whose streams are compressed already). */
  compress: boolean;
  /** The entry's modification date, YYYY-MM-DD (clamped to the DOS range 1980–2107); time 00:00. */
  date: string;
}

interface Written {
  name: Buffer;
  method: 0 | 8;
  crc: number;
  compressedSize: number;
  size: number;
  dosDate: number;
  offset: number;
}

/** Version 2.0 (deflate), flag bit 11: names are UTF-8. */
const VERSION = 20;
const UTF8_NAMES = 0x0800;
const MAX_32 = 0xffffffff;
const MAX_ENTRIES = 0xffff;

export class ZipWriter {
  private readonly parts: Buffer[] = [];
  private readonly entries: Written[] = [];
  private readonly names = new Set<string>();
  private offset = 0;

  /** Adds one file. Names are relative, with no "..", no leading "/" and no backslash, and unique. */
  add(name: string, data: Buffer, options: ZipEntryOptions): void {
    if (!/^[^/\\][^\\]*$/.test(name) || name.split('/').includes('..'))
      throw new RangeError(`unsafe ZIP entry name: ${JSON.stringify(name)}`);
    if (this.names.has(name)) throw new RangeError(`duplicate ZIP entry name: ${name}`);
    if (this.entries.length >= MAX_ENTRIES) throw new RangeError('too many ZIP entries');
    this.names.add(name);
    const encodedName = Buffer.from(name, 'utf8');
    const compressed = options.compress ? deflateRawSync(data, { level: 9 }) : data;
    const entry: Written = {
      name: encodedName,
      method: options.compress ? 8 : 0,
      crc: crc32(data),
      compressedSize: compressed.length,
      size: data.length,
      dosDate: dosDateOf(options.date),
      offset: this.offset,
    };
    if (entry.size > MAX_32 || this.offset + 30 + encodedName.length + compressed.length > MAX_32)
      throw new RangeError('the ZIP would need ZIP64 (over 4 GiB)');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(UTF8_NAMES, 6);
    header.writeUInt16LE(entry.method, 8);
    header.writeUInt16LE(0, 10); // DOS time 00:00:00
    header.writeUInt16LE(entry.dosDate, 12);
    header.writeUInt32LE(entry.crc, 14);
    header.writeUInt32LE(entry.compressedSize, 18);
    header.writeUInt32LE(entry.size, 22);
    header.writeUInt16LE(encodedName.length, 26);
    header.writeUInt16LE(0, 28); // no extra field
    this.parts.push(header, encodedName, compressed);
    this.offset += header.length + encodedName.length + compressed.length;
    this.entries.push(entry);
  }

  /**
   * The archive as one buffer: the entries' parts are copied into it once and dropped, so at most
   * the archive and its parts exist at the same time, briefly.
   */
  finish(): Buffer {
    const directory: Buffer[] = [];
    for (const entry of this.entries) {
      const record = Buffer.alloc(46);
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE(VERSION, 4); // made by: MS-DOS attributes, version 2.0
      record.writeUInt16LE(VERSION, 6);
      record.writeUInt16LE(UTF8_NAMES, 8);
      record.writeUInt16LE(entry.method, 10);
      record.writeUInt16LE(0, 12);
      record.writeUInt16LE(entry.dosDate, 14);
      record.writeUInt32LE(entry.crc, 16);
      record.writeUInt32LE(entry.compressedSize, 20);
      record.writeUInt32LE(entry.size, 24);
      record.writeUInt16LE(entry.name.length, 28);
      // extra length, comment length, disk number, internal and external attributes: all 0
      record.writeUInt32LE(entry.offset, 42);
      directory.push(record, entry.name);
    }
    const directorySize = directory.reduce((sum, part) => sum + part.length, 0);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(directorySize, 12);
    end.writeUInt32LE(this.offset, 16);
    const parts = this.parts.splice(0);
    return Buffer.concat([...parts, ...directory, end], this.offset + directorySize + end.length);
  }
}

/** YYYY-MM-DD as a DOS date (bits: year-1980 << 9 | month << 5 | day), clamped to 1980-01-01…2107-12-31. */
export function dosDateOf(date: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!match) return (1 << 5) | 1;
  const year = Number(match[1]);
  if (year < 1980) return (1 << 5) | 1;
  if (year > 2107) return (127 << 9) | (12 << 5) | 31;
  return ((year - 1980) << 9) | (Number(match[2]) << 5) | Number(match[3]);
}
