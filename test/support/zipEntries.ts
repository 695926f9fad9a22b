import { inflateRawSync } from 'node:zlib';

/**
 * A ZIP's entry names and contents in archive order, read by walking the local headers from the
 * start (src/batch/zipWriter.ts writes sizes in them, no data descriptors), so tests can check the
 * order the batch wrote its files in.
 */
export function zipEntries(zip: Buffer): [string, string][] {
  const found: [string, string][] = [];
  for (let at = 0; zip.readUInt32LE(at) === 0x04034b50;) {
    const method = zip.readUInt16LE(at + 8);
    const size = zip.readUInt32LE(at + 18);
    const nameLength = zip.readUInt16LE(at + 26);
    const name = zip.subarray(at + 30, at + 30 + nameLength).toString();
    const data = zip.subarray(at + 30 + nameLength, at + 30 + nameLength + size);
    found.push([name, (method === 8 ? inflateRawSync(data) : data).toString()]);
    at += 30 + nameLength + size;
  }
  return found;
}
