import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { BAZAAR } from '@x402/extensions/bazaar';
import { compactPaymentRequired } from './compactChallenge.js';
import { extensionMismatch, type Refusal } from './matchOffer.js';
import { buildPaymentRequired, type OfferTerms, type PricedResource } from './offer.js';
import type { ReceiptSigner } from './receipts.js';

/**
 * The 402 challenge of a resource at a price, built once and kept:
 *  - unsigned, for as long as the process lives (it depends only on the resource, the price and the
 *    configured terms and base URL);
 *  - with its signed offers (receipts.ts), for the first half of the offers' validity window
 *    (`maxTimeoutSeconds`): an EIP-712 signature costs about a millisecond of event-loop time, and a
 *    flood of unpaid requests would otherwise pay it per request (bench/freeCost.ts measures it).
 *    A kept offer still holds at least half its window when handed out; a client signs its payment
 *    within seconds of reading it.
 * Concurrent first requests share one signing. Only the `error` differs between two answers.
 */
export interface Challenges {
  /** The challenge as sent (signed offers when receipts are on), whole: discovery extensions included. */
  challenge(resource: PricedResource, error: string): Promise<PaymentRequired>;
  /**
   * Whether the extensions a client echoed differ from what we advertised, before signing: the
   * whole challenge or its compact form (compactChallenge.ts), whichever the client read.
   */
  echoMismatch(echoed: Record<string, unknown> | undefined, resource: PricedResource): Refusal | undefined;
  /**
   * The payload forwarded to the facilitator, with our whole discovery (bazaar) declaration. The
   * bazaar catalogs a resource from the payload it verifies and settles (@x402/extensions bazaar
   * extractDiscoveryInfo); a client echoes what it read, which over HTTP is the compact declaration
   * (compactChallenge.ts) or none. The echo was compared with what we advertised first.
   */
  withDiscovery(payload: PaymentPayload, resource: PricedResource): PaymentPayload;
}

/** Distinct (resource, price) pairs kept at most; a batch route has one price per batch size. */
const MAX_KEPT = 2048;

export function createChallenges(options: {
  terms: OfferTerms;
  baseUrl: string;
  receipts?: ReceiptSigner | undefined;
  /** Offers on other networks listed after ours (the trial network's), signed with ours. */
  alsoAccepts?: ((resource: PricedResource) => PaymentRequirements[]) | undefined;
  now?: () => number;
}): Challenges {
  const { terms, baseUrl, receipts, alsoAccepts } = options;
  const now = options.now ?? Date.now;
  const unsigned = new Map<string, PaymentRequired>();
  const signed = new Map<string, { until: number; paymentRequired: Promise<PaymentRequired> }>();
  const keepForMs = (terms.maxTimeoutSeconds * 1000) / 2;

  const keyOf = (resource: PricedResource) => `${resource.method} ${resource.path} ${resource.priceUsd}`;

  function unsignedOf(resource: PricedResource): PaymentRequired {
    const key = keyOf(resource);
    let paymentRequired = unsigned.get(key);
    if (!paymentRequired) {
      if (unsigned.size >= MAX_KEPT) unsigned.clear();
      paymentRequired = buildPaymentRequired(resource, terms, baseUrl, '');
      // Before signing: every accepts entry gets its signed offer (acceptIndex is its position).
      if (alsoAccepts)
        paymentRequired = { ...paymentRequired, accepts: [...paymentRequired.accepts, ...alsoAccepts(resource)] };
      unsigned.set(key, paymentRequired);
    }
    return paymentRequired;
  }

  function signedOf(resource: PricedResource, signer: ReceiptSigner): Promise<PaymentRequired> {
    const key = keyOf(resource);
    const time = now();
    const kept = signed.get(key);
    if (kept && kept.until > time) return kept.paymentRequired;
    if (signed.size >= MAX_KEPT) for (const [k, entry] of signed) if (entry.until <= time) signed.delete(k);
    if (signed.size >= MAX_KEPT) signed.clear();
    const paymentRequired = signer.signOffers(unsignedOf(resource));
    signed.set(key, { until: time + keepForMs, paymentRequired });
    // A failed signing is not kept: the next request tries again.
    paymentRequired.catch(() => signed.delete(key));
    return paymentRequired;
  }

  return {
    async challenge(resource, error) {
      const paymentRequired = receipts ? await signedOf(resource, receipts) : unsignedOf(resource);
      return { ...paymentRequired, error };
    },
    echoMismatch(echoed, resource) {
      const advertised = unsignedOf(resource);
      return (
        extensionMismatch(echoed, advertised.extensions) &&
        extensionMismatch(echoed, compactPaymentRequired(advertised).extensions)
      );
    },
    withDiscovery(payload, resource) {
      const bazaar = unsignedOf(resource).extensions?.[BAZAAR.key];
      if (bazaar === undefined) return payload;
      return { ...payload, extensions: { ...payload.extensions, [BAZAAR.key]: bazaar } };
    },
  };
}
