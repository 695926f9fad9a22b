import { rejected } from '../errors.js';

/**
 * The bytes of an XML document as text: a BOM decides (UTF-8, UTF-16), else the declaration's
 * encoding (UTF-8 by default; ISO-8859-1 and windows-1252 also read), with invalid bytes refused
 * rather than replaced, so that no value changes silently.
 */
const DECLARED = /^<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/;
const READABLE: Record<string, string> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'iso-8859-1': 'latin1',
  latin1: 'latin1',
  'windows-1252': 'windows-1252',
  'us-ascii': 'utf-8',
  'iso-8859-15': 'iso-8859-15',
};

export function xmlText(bytes: Uint8Array): string {
  const decode = (label: string, from: number) => {
    try {
      return new TextDecoder(label, { fatal: true }).decode(bytes.subarray(from));
    } catch {
      throw rejected('xml_malformed', `The body is not valid ${label} text, so it cannot be XML.`, [
        { path: '', code: 'xml_malformed', message: `invalid ${label} bytes` },
      ]);
    }
  };
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return decode('utf-8', 3);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decode('utf-16le', 2);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decode('utf-16be', 2);
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = DECLARED.exec(head)?.[1]?.toLowerCase() ?? 'utf-8';
  const label = READABLE[declared];
  if (!label) {
    throw rejected(
      'xml_encoding_unsupported',
      `The XML declares encoding ${declared}; send UTF-8 (or UTF-16, ISO-8859-1).`,
      [{ path: '', code: 'xml_encoding_unsupported', message: `encoding ${declared} is not read` }],
    );
  }
  return decode(label, 0);
}
