import { childrenOf, oidOf, valueOf, type Der } from './der.js';

/** X.500 attribute types a signer's subject shows, by OID (RFC 4514's short names). */
const SHORT_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.4': 'SN',
  '2.5.4.5': 'SERIALNUMBER',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.12': 'T',
  '2.5.4.42': 'GN',
  '2.5.4.46': 'dnQualifier',
  '2.5.4.97': 'organizationIdentifier',
  '1.2.840.113549.1.9.1': 'emailAddress',
};

/** A Name (SEQUENCE OF SET OF type/value) as "CN=…, O=…, C=…", most specific first as certificates are read. */
export function nameText(name: Der, budget: { elements: number }): string {
  const parts: string[] = [];
  for (const set of childrenOf(name, budget))
    for (const pair of childrenOf(set, budget)) {
      const [type, value] = childrenOf(pair, budget);
      if (!type || !value) continue;
      const oid = oidOf(type);
      parts.push(`${SHORT_NAMES[oid] ?? oid}=${stringOf(value)}`);
    }
  return parts.reverse().join(', ');
}

/** The directory string types: UTF-8, printable, IA5, T.61 (read as Latin-1), BMP (UTF-16BE), universal (UTF-32BE). */
function stringOf(value: Der): string {
  const bytes = Buffer.from(valueOf(value));
  const text =
    value.tag === 0x1e
      ? Buffer.from(bytes.subarray(0, bytes.length & ~1))
          .swap16()
          .toString('utf16le')
      : value.tag === 0x1c
        ? String.fromCodePoint(
            ...Array.from({ length: bytes.length >> 2 }, (_, at) => bytes.readUInt32BE(at * 4) & 0x10ffff),
          )
        : value.tag === 0x14
          ? bytes.toString('latin1')
          : bytes.toString('utf8');
  // A subject is shown as text: no control characters reach an answer or a PDF.
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?').slice(0, 256);
}
