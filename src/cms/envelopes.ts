import { rejected } from '../errors.js';
import { isSignedData, looksLikeDer, readSignedData, type SignedContent } from './signedData.js';

/**
 * A signed file as it arrives: a CAdES .p7m in DER or BER, raw or as base64 text (with or without
 * line breaks, with or without a PEM armour such as "-----BEGIN PKCS7-----", as mailboxes and the
 * SDI hand it over), and a .p7m signed again (a .p7m inside a .p7m), opened up to
 * MAX_ENVELOPES levels. Returns undefined when the bytes are no envelope (XML is read as XML);
 * the signers of every level are listed, the outermost first.
 */
export const MAX_ENVELOPES = 4;

export function openEnvelopes(bytes: Uint8Array, maxBytes: number): SignedContent | undefined {
  const outer = envelopeBytes(bytes, false);
  if (!outer) return undefined;
  let content = outer;
  const signers: string[] = [];
  for (let level = 1; ; level++) {
    const signed = readSignedData(content, maxBytes);
    signers.push(...signed.signers);
    const inner = envelopeBytes(signed.content, true);
    if (!inner) return { content: signed.content, signers };
    if (level === MAX_ENVELOPES)
      throw rejected(
        'p7m_nested',
        `The signed envelope holds signed envelopes more than ${MAX_ENVELOPES} levels deep; no more are opened.`,
        [{ path: '', code: 'p7m_nested', message: `more than ${MAX_ENVELOPES} nested envelopes` }],
      );
    content = inner;
  }
}

/**
 * The DER/BER bytes of an envelope, raw or decoded from base64 text; undefined when there is none.
 * The outer file is an envelope when it starts like DER at all (so a broken one is refused as such);
 * a signed content is another envelope only when it starts with SignedData's type.
 */
function envelopeBytes(bytes: Uint8Array, inner: boolean): Uint8Array | undefined {
  const raw = inner ? isSignedData(bytes) : looksLikeDer(bytes);
  if (raw) return bytes;
  const decoded = fromBase64Text(bytes);
  return decoded && (inner ? isSignedData(decoded) : looksLikeDer(decoded)) ? decoded : undefined;
}

/** PEM armour lines ("-----BEGIN PKCS7-----", "-----END CMS-----"): dropped before decoding. */
const ARMOUR = /^-----(BEGIN|END) [A-Z0-9 ]+-----$/gm;
/** Base64 once white space is dropped (two passes without overlapping classes: no backtracking). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Base64 text's bytes, or undefined when the text is not base64 (an XML document starts with "<"
 * or a byte-order mark, so it is never taken for base64). Linear: one test, one decode.
 */
function fromBase64Text(bytes: Uint8Array): Uint8Array | undefined {
  // Base64 text is ASCII; anything else (binary, UTF-16, XML) is looked at no further.
  const head = bytes.subarray(0, 64);
  if (head.length < 4 || head.some((byte) => byte > 0x7e || byte === 0x3c)) return undefined;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(ARMOUR, '')
    .replace(/[\r\n\t ]+/g, '');
  if (!BASE64.test(text)) return undefined;
  const decoded = Buffer.from(text, 'base64');
  return decoded.length > 2 ? decoded : undefined;
}
