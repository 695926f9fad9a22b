import {
  SIWxPayloadSchema,
  validateSIWxMessage,
  verifySIWxSignature,
  type SIWxPayload,
} from '@x402/extensions/sign-in-with-x';
import { AppError } from '../../errors.js';

/** A sign-in as a transport carries it: the SIGN-IN-WITH-X header, or MCP's `_meta["sign-in-with-x"]` object. */
export type SignInInput = { header: string } | { payload: unknown };

/** Largest SIGN-IN-WITH-X we read: a real one is about 1 KB of base64. */
export const MAX_SIGN_IN_HEADER_BYTES = 4 * 1024;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const malformed = (message: string) =>
  new AppError('invalid_sign_in_header', `SIGN-IN-WITH-X is malformed: ${message}.`);

/**
 * Size cap → base64 → JSON → the extension's own payload schema (@x402/extensions/sign-in-with-x
 * SIWxPayloadSchema). Anything off is a 400, like a malformed PAYMENT-SIGNATURE: a client bug, not
 * a sign-in decision.
 */
export function decodeSignIn(input: SignInInput): SIWxPayload {
  let json: unknown;
  if ('header' in input) {
    const text = input.header.trim();
    if (Buffer.byteLength(text) > MAX_SIGN_IN_HEADER_BYTES) throw malformed(`over ${MAX_SIGN_IN_HEADER_BYTES} bytes`);
    if (!BASE64.test(text)) throw malformed('not standard base64');
    try {
      json = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
    } catch {
      throw malformed('the decoded value is not JSON');
    }
  } else {
    json = input.payload;
    if (Buffer.byteLength(JSON.stringify(json) ?? '') > MAX_SIGN_IN_HEADER_BYTES)
      throw malformed(`over ${MAX_SIGN_IN_HEADER_BYTES} bytes`);
  }
  const parsed = SIWxPayloadSchema.safeParse(json);
  if (!parsed.success)
    throw malformed(`not a sign-in-with-x payload (${parsed.error.issues[0]?.path.join('.') || 'value'})`);
  return parsed.data;
}

export interface SignInExpectations {
  /** The configured public origin (PUBLIC_BASE_URL), never the Host header. */
  baseUrl: string;
  /** The CAIP-2 networks the 402 offers (the chains a sign-in may name). */
  networks: readonly string[];
  /** How old a message's issuedAt may be (the extension's default: 5 minutes). */
  maxAgeMs: number;
}

export type SignInCheck = { kind: 'signed-in'; address: string } | { kind: 'refused'; reason: string; message: string };

const refused = (reason: string, message: string): SignInCheck => ({ kind: 'refused', reason, message });

/**
 * Everything about one sign-in message except its nonce (the caller takes it last, so that only a
 * message with a valid signature can use one up): bound to our origin and base URL, on a chain
 * we offer, recent, and signed by `address` (EOA signatures only: no RPC is asked, so EIP-1271 smart
 * wallets can't sign in). Cheap checks first; the signature recovery (≈ 1 ms) last.
 */
export async function checkSignInMessage(payload: SIWxPayload, expected: SignInExpectations): Promise<SignInCheck> {
  const origin = new URL(expected.baseUrl);
  const validation = await validateSIWxMessage(payload, origin, { maxAge: expected.maxAgeMs });
  if (!validation.isValid) return refused(validation.invalidReason, validation.invalidMessage);
  // The offer's uri is the base URL itself (signInChallenge.ts); what was paid for is the request.
  if (payload.uri !== expected.baseUrl)
    return refused('invalid_siwx_uri_mismatch', `sign in with the uri ${expected.baseUrl}, not ${payload.uri}`);
  if (!expected.networks.includes(payload.chainId) || payload.type !== 'eip191')
    return refused(
      'invalid_siwx_unsupported_chain',
      `sign in on one of ${expected.networks.join(', ')} with an EVM (eip191) signature`,
    );
  const verified = await verifySIWxSignature(payload);
  if (!verified.isValid) return refused(verified.invalidReason, verified.invalidMessage);
  return { kind: 'signed-in', address: verified.payer };
}
