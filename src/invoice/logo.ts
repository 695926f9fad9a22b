import type { Issue } from '../errors.js';
import { LIMITS } from './limits.js';

/**
 * A logo, decoded once per request and checked by its bytes, never by its label: PNG or JPEG
 * only (SVG can carry scripts and external references), bounded in bytes and pixels. The page
 * gets a data URI rebuilt from the checked bytes, so no request text reaches the `src` attribute.
 */
export interface Logo {
  mimeType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  /** data:<mimeType>;base64,<the decoded bytes re-encoded> */
  dataUri: string;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function decodeLogo(dataUri: string): { logo: Logo } | { issue: Issue } {
  const fail = (message: string): { issue: Issue } => ({ issue: { path: 'logo', code: 'invalid_logo', message } });
  const comma = dataUri.indexOf(',');
  const bytes = Buffer.from(dataUri.slice(comma + 1), 'base64');
  if (bytes.length > LIMITS.logoBytes)
    return fail(
      `must be at most ${LIMITS.logoBytes / 1024} KiB of image data; it has ${Math.ceil(bytes.length / 1024)} KiB`,
    );
  const size = bytes.subarray(0, 8).equals(PNG_SIGNATURE)
    ? pngSize(bytes)
    : isJpeg(bytes)
      ? jpegSize(bytes)
      : undefined;
  if (!size) return fail('must be a PNG or JPEG image (its bytes are neither; SVG and other formats are refused)');
  const { mimeType, width, height } = size;
  if (width < 1 || height < 1 || width > LIMITS.logoSide || height > LIMITS.logoSide) {
    return fail(`must be 1 to ${LIMITS.logoSide} pixels on either side; it is ${width} × ${height}`);
  }
  return { logo: { mimeType, width, height, dataUri: `data:${mimeType};base64,${bytes.toString('base64')}` } };
}

function pngSize(bytes: Buffer): { mimeType: 'image/png'; width: number; height: number } | undefined {
  // The first chunk must be IHDR: length 13, then width and height as 32-bit big-endian.
  if (bytes.length < 33 || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { mimeType: 'image/png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function isJpeg(bytes: Buffer): boolean {
  return bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

/** Walks the JPEG markers to the first start-of-frame, which holds the size. */
function jpegSize(bytes: Buffer): { mimeType: 'image/jpeg'; width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { mimeType: 'image/jpeg', height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image or scan before any frame
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return undefined;
}
