import {
  SIWxPayloadSchema,
  validateSIWxMessage,
  verifySIWxSignature,
  type SIWxPayload,
} from '@x402/extensions/sign-in-with-x';
import { AppError } from '../../errors.js';

/**
 * A sign-in as a transport hands it over, decoded lazily so that a malformed one is refused only
 * when a paid route reads it: the SIGN-IN-WITH-X header (http/signInHeader.ts) or MCP's
 * `_meta["sign-in-with-x"]` object.
 */
export interface SignInInput {
  read(): unknown;
}

/** Largest sign-in payload we read: a real one is about 700 bytes of JSON (1 KB as a header). */
export const MAX_SIGN_IN_BYTES = 3 * 1024;

export const malformedSignIn = (message: string) =>
  new AppError('invalid_sign_in_header', `SIGN-IN-WITH-X is malformed: ${message}.`);

/**
 * Size cap → the extension's own payload schema (@x402/extensions/sign-in-with-x
 * SIWxPayloadSchema). Anything off is a 400, like a malformed PAYMENT-SIGNATURE: a client bug, not
 * a sign-in decision.
 */
export function decodeSignIn(input: SignInInput): SIWxPayload {
  const json = input.read();
  if (Buffer.byteLength(JSON.stringify(json) ?? '') > MAX_SIGN_IN_BYTES)
    throw malformedSignIn(`over ${MAX_SIGN_IN_BYTES} bytes`);
  const parsed = SIWxPayloadSchema.safeParse(json);
  if (!parsed.success)
    throw malformedSignIn(`not a sign-in-with-x payload (${parsed.error.issues[0]?.path.join('.') || 'value'})`);
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
