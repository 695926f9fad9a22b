import { randomBytes } from 'node:crypto';
import type { PaymentRequired } from '@x402/core/types';
import { buildSIWxSchema, SIGN_IN_WITH_X, type SIWxExtension } from '@x402/extensions/sign-in-with-x';

/**
 * The sign-in-with-x extension of one 402 (the shape @x402/extensions' own server declares:
 * info + supportedChains + schema): a fresh nonce and issuedAt, domain and uri from the configured
 * public base URL (never the Host header; the uri is that URL, not the resource's: an entitlement is
 * to a request, signInWithXCall.ts, whatever the message names). Costs 8 random bytes (a nonce is
 * also good once only, for 5 minutes) and a date, nothing signed.
 *
 * Kept small, because every byte is in the 402's header and again in the PAYMENT-SIGNATURE a
 * client echoes it in (http/challengeBudget.ts): no statement, no expirationTime (a message is
 * good for the sign-in's maxAgeMs after its issuedAt anyway), the schema only in the body, and one
 * chain: the network of `accepts[0]`, the one `wrapFetchWithSIWx` signs for (an EVM signature
 * names its chain but doesn't depend on it; the server takes any network it offers).
 */
function signInExtension(baseUrl: string, network: string, options: { now: number }): SIWxExtension {
  return {
    info: {
      domain: new URL(baseUrl).host,
      uri: baseUrl,
      version: '1',
      nonce: randomBytes(8).toString('hex'),
      // Whole seconds: the milliseconds would only cost header bytes.
      issuedAt: new Date(Math.floor(options.now / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
    },
    supportedChains: [{ chainId: network, type: 'eip191' }],
    schema: buildSIWxSchema(),
  };
}

/** The challenge with a sign-in offer added (every other extension as it was). */
export function withSignInOffer(
  paymentRequired: PaymentRequired,
  options: { now: number; baseUrl: string },
): PaymentRequired {
  const [first] = paymentRequired.accepts;
  if (!first) return paymentRequired;
  return {
    ...paymentRequired,
    extensions: {
      ...paymentRequired.extensions,
      [SIGN_IN_WITH_X]: signInExtension(options.baseUrl, first.network, options),
    },
  };
}

/**
 * The sign-in offer as a small carrier (the PAYMENT-REQUIRED header, compactChallenge.ts) takes
 * it: without its JSON Schema (a fixed document of the extension, ~700 bytes, that no client needs
 * to sign: @x402/extensions' wrapFetchWithSIWx reads `info` and `supportedChains` only).
 */
export function compactSignInOffer(offer: unknown): unknown {
  if (!offer || typeof offer !== 'object') return offer;
  const { schema: _schema, ...compact } = offer as SIWxExtension;
  return compact;
}
