import { malformedSignIn, MAX_SIGN_IN_BYTES } from '../payment/signInWithX/signInProof.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The SIGN-IN-WITH-X header's value as the extension's HTTP transport carries it (base64 of JSON,
 * @x402/extensions/sign-in-with-x encodeSIWxHeader), decoded to the payload object that
 * payment/signInWithX/signInProof.ts checks, as http/paymentSignature.ts does for the payment.
 * Anything off is a 400 `invalid_sign_in_header`.
 */
export function readSignInHeader(header: string): unknown {
  const text = header.trim();
  // The base64 of a payload within the cap is at most 4/3 of it (plus padding).
  if (Buffer.byteLength(text) > Math.ceil(MAX_SIGN_IN_BYTES / 3) * 4)
    throw malformedSignIn(`over ${MAX_SIGN_IN_BYTES} bytes`);
  if (!BASE64.test(text)) throw malformedSignIn('not standard base64');
  try {
    return JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as unknown;
  } catch {
    throw malformedSignIn('the decoded value is not JSON');
  }
}
