import { randomBytes } from 'node:crypto';
import type { PaymentRequired } from '@x402/core/types';
import { buildSIWxSchema, SIGN_IN_WITH_X, type SIWxExtension } from '@x402/extensions/sign-in-with-x';

/**
 * The sign-in-with-x extension of one 402 (the shape @x402/extensions' own server declares:
 * info + supportedChains + schema): a fresh nonce and issuedAt, domain and uri from the configured
 * public base URL (never the Host header), one eip191 chain per network the 402 offers, so that
 * `wrapFetchWithSIWx`, which signs for the chain of `accepts[0]`, finds its chain. Costs a 16-byte
 * random nonce and a date, nothing signed. Kept small, because every byte is in the 402's header
 * and again in the PAYMENT-SIGNATURE a client echoes it in: no statement, no expirationTime (a
 * message is good for `maxAgeMs` after its issuedAt anyway), and the schema only in the body.
 */
export function signInExtension(
  resourceUrl: string,
  networks: readonly string[],
  options: { now: number },
): SIWxExtension {
  const url = new URL(resourceUrl);
  return {
    info: {
      domain: url.host,
      uri: resourceUrl,
      version: '1',
      nonce: randomBytes(16).toString('hex'),
      issuedAt: new Date(options.now).toISOString(),
    },
    supportedChains: [...new Set(networks)].map((chainId) => ({ chainId, type: 'eip191' as const })),
    schema: buildSIWxSchema(),
  };
}

/** The challenge with a sign-in offer added (every other extension as it was). */
export function withSignInOffer(paymentRequired: PaymentRequired, options: { now: number }): PaymentRequired {
  const networks = paymentRequired.accepts.map((accept) => accept.network);
  return {
    ...paymentRequired,
    extensions: {
      ...paymentRequired.extensions,
      [SIGN_IN_WITH_X]: signInExtension(paymentRequired.resource.url, networks, options),
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
