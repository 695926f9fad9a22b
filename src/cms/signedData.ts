import { rejected } from '../errors.js';
import { berToDer } from './ber.js';
import { childrenOf, DER_LIMITS, isConstructed, malformed, oidOf, readDer, valueOf, type Der } from './der.js';
import { nameText } from './names.js';

/**
 * A CAdES / CMS SignedData envelope (an Italian .p7m) opened for reading: the content it carries
 * (eContent) and the subject of each signer's certificate. Nothing is verified (no signature, no
 * trust list, no revocation), nothing is fetched or run: the signature is reported as present. DER
 * or BER (ber.ts re-encodes BER as DER first); anything over the caller's size bound, deeper than
 * DER_LIMITS.depth or with more than DER_LIMITS.elements elements is refused. An envelope inside
 * the content is opened by envelopes.ts.
 */
export interface SignedContent {
  content: Uint8Array;
  /** The signer certificates' subjects, e.g. "CN=Mario Rossi, SERIALNUMBER=TINIT-RSSMRA80A01H501U, C=IT". */
  signers: string[];
}

const SIGNED_DATA = '1.2.840.113549.1.7.2';

/** True when the bytes start like a DER SEQUENCE (an XML document starts with "<", a BOM or space). */
export const looksLikeDer = (bytes: Uint8Array): boolean => bytes[0] === 0x30 && bytes.byteLength > 2;

export function readSignedData(bytes: Uint8Array, maxBytes: number): SignedContent {
  if (bytes.byteLength > maxBytes)
    throw rejected('p7m_too_large', `The signed envelope is larger than ${maxBytes} bytes.`, [
      { path: '', code: 'p7m_too_large', message: 'too large' },
    ]);
  const der = berToDer(bytes);
  const budget = { elements: DER_LIMITS.elements };
  const info = readDer(der, 0, der.byteLength);
  checkDepth(info, 0, budget);
  const [type, wrapped] = childrenOf(info, budget);
  if (!type || oidOf(type) !== SIGNED_DATA || !wrapped || wrapped.tag !== 0xa0)
    throw malformed('not a CMS SignedData (PKCS #7 signed data)');
  const [signedData] = childrenOf(wrapped, budget);
  if (!signedData || signedData.tag !== 0x30) throw malformed('SignedData is not a SEQUENCE');
  const fields = childrenOf(signedData, budget);
  const encapsulated = fields[2];
  if (!encapsulated || encapsulated.tag !== 0x30) throw malformed('no encapsulated content');
  const content = eContentOf(encapsulated, budget);
  const certificates = fields.find((field) => field.tag === 0xa0);
  const signerInfos = fields[fields.length - 1];
  return { content, signers: signerSubjects(certificates, signerInfos, budget) };
}

/** Walks the whole envelope once so that depth and element count are bounded before anything is taken. */
function checkDepth(node: Der, depth: number, budget: { elements: number }): void {
  if (depth > DER_LIMITS.depth) throw malformed(`nested deeper than ${DER_LIMITS.depth} levels`);
  if (!isConstructed(node)) return;
  for (const child of childrenOf(node, budget)) checkDepth(child, depth + 1, budget);
}

/** eContent: [0] EXPLICIT OCTET STRING (ber.ts has joined a constructed one's segments already). */
function eContentOf(encapsulated: Der, budget: { elements: number }): Uint8Array {
  const [, explicit] = childrenOf(encapsulated, budget);
  if (!explicit || explicit.tag !== 0xa0) throw malformed('the envelope carries no content (a detached signature)');
  const [octets] = childrenOf(explicit, budget);
  if (!octets) throw malformed('empty content');
  if (octets.tag !== 0x04) throw malformed('the content is not an OCTET STRING');
  return valueOf(octets);
}

/** The DER of SignedData's content type OID (1.2.840.113549.1.7.2). */
const SIGNED_DATA_OID = Buffer.from('06092a864886f70d010702', 'hex');

/** True when the bytes start like a SignedData envelope (a SEQUENCE, any length form, then its OID). */
export function isSignedData(bytes: Uint8Array): boolean {
  if (bytes[0] !== 0x30 || bytes.byteLength < 2 + SIGNED_DATA_OID.length) return false;
  const first = bytes[1]!;
  const at = first <= 0x80 ? 2 : 2 + (first & 0x7f);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .subarray(at, at + SIGNED_DATA_OID.length)
    .equals(SIGNED_DATA_OID);
}

/**
 * The subject of each signer's certificate: the certificate whose issuer and serial number the
 * SignerInfo names, else (a subject key identifier) the only certificate when there is one.
 */
function signerSubjects(
  certificates: Der | undefined,
  signerInfos: Der | undefined,
  budget: { elements: number },
): string[] {
  if (!signerInfos || signerInfos.tag !== 0x31) throw malformed('no signer information');
  const certs = certificates ? childrenOf(certificates, budget).filter((cert) => cert.tag === 0x30) : [];
  const parsed = certs.map((cert) => {
    const [tbs] = childrenOf(cert, budget);
    if (!tbs) throw malformed('an empty certificate');
    const parts = childrenOf(tbs, budget);
    const offset = parts[0]?.tag === 0xa0 ? 1 : 0;
    const [serial, , issuer, , subject] = parts.slice(offset);
    if (!serial || !issuer || !subject) throw malformed('a certificate without issuer, serial or subject');
    return { key: key(issuer, serial), subject: nameText(subject, budget) };
  });
  return childrenOf(signerInfos, budget).map((info) => {
    const [, sid] = childrenOf(info, budget);
    if (sid?.tag === 0x30) {
      const [issuer, serial] = childrenOf(sid, budget);
      const match = issuer && serial ? parsed.find((cert) => cert.key === key(issuer, serial)) : undefined;
      if (match) return match.subject;
    }
    return parsed.length === 1 ? parsed[0]!.subject : 'unknown signer (certificate not in the envelope)';
  });
}

const key = (issuer: Der, serial: Der) =>
  Buffer.from(valueOf(issuer)).toString('hex') + ':' + Buffer.from(valueOf(serial)).toString('hex');
