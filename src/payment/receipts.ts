import type { PaymentRequired } from '@x402/core/types';
import { createEIP712OfferReceiptIssuer, OFFER_RECEIPT, type OfferReceiptIssuer } from '@x402/extensions/offer-receipt';
import { hashTypedData } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { signHash } from './ecdsaThread.js';
import type { SettleResponse } from './facilitatorClient.js';

/**
 * The x402 offer-receipt extension (x402 specs/extensions/extension-offer-and-receipt.md), EIP-712
 * format, signed with the service's receipt key through @x402/extensions:
 *  - every challenge carries `extensions["offer-receipt"].info.offers`: one signed offer per accepts
 *    entry (resource URL, scheme, network, asset, payTo, amount, validUntil), proof of what we asked
 *    for (over HTTP in the 402's JSON body, not its header: compactChallenge.ts);
 *  - every successful settlement (PAYMENT-RESPONSE, and the MCP result's x402/payment-response)
 *    carries `extensions["offer-receipt"].info.receipt`: the signed receipt (resource URL, payer,
 *    network, issuedAt, transaction), proof that this service delivered after that payment.
 * Anyone verifies either offline with verifyReceiptSignatureEIP712 / verifyOfferSignatureEIP712 and
 * compares the recovered address with the signer the service publishes (/.well-known/x402,
 * /openapi.json). The receipt is stored with the paid result, so a replay hands back the same one.
 */
export interface ReceiptSigner {
  /** The address receipts and offers recover to. */
  address: `0x${string}`;
  /** The key id the extension names (did:pkh, on the EIP-712 domain's chain 1). */
  kid: string;
  /** The challenge with a signed offer for each accepts entry. */
  signOffers(paymentRequired: PaymentRequired): Promise<PaymentRequired>;
  /** A successful settlement with its signed receipt for `resourceUrl`; anything else as is. */
  signReceipt(settlement: SettleResponse, resourceUrl: string): Promise<SettleResponse>;
}

/** Compact schemas of the extension's info (the SDK's own server extension declares the same fields). */
const OFFERS_SCHEMA = {
  type: 'object',
  properties: { offers: { type: 'array', items: { type: 'object', required: ['format', 'signature'] } } },
  required: ['offers'],
};
const RECEIPT_SCHEMA = {
  type: 'object',
  properties: { receipt: { type: 'object', required: ['format', 'signature'] } },
  required: ['receipt'],
};

export function createReceiptSigner(privateKey: `0x${string}`): ReceiptSigner {
  const account = privateKeyToAccount(privateKey);
  const kid = `did:pkh:eip155:1:${account.address}`;
  // What account.signTypedData does, the hash taken here and the key used on the ECDSA thread
  // (ecdsaThread.ts): 1.5-2.5 ms of the event loop per receipt otherwise.
  const issuer: OfferReceiptIssuer = createEIP712OfferReceiptIssuer(kid, (data) =>
    signHash(hashTypedData(data as Parameters<typeof account.signTypedData>[0]), privateKey),
  );
  return {
    address: account.address,
    kid,
    async signOffers(paymentRequired) {
      const offers = await Promise.all(
        paymentRequired.accepts.map((accept, acceptIndex) =>
          issuer.issueOffer(paymentRequired.resource.url, {
            acceptIndex,
            scheme: accept.scheme,
            network: accept.network,
            asset: accept.asset,
            payTo: accept.payTo,
            amount: accept.amount,
            // The offer holds as long as a payment signed for it may be settled.
            offerValiditySeconds: accept.maxTimeoutSeconds,
          }),
        ),
      );
      return {
        ...paymentRequired,
        extensions: { ...paymentRequired.extensions, [OFFER_RECEIPT]: { info: { offers }, schema: OFFERS_SCHEMA } },
      };
    },
    async signReceipt(settlement, resourceUrl) {
      if (!settlement.success || !settlement.payer) return settlement;
      const receipt = await issuer.issueReceipt(
        resourceUrl,
        settlement.payer,
        settlement.network,
        settlement.transaction || undefined,
      );
      const extensions = (settlement as { extensions?: Record<string, unknown> }).extensions;
      return {
        ...settlement,
        extensions: { ...extensions, [OFFER_RECEIPT]: { info: { receipt }, schema: RECEIPT_SCHEMA } },
      } as SettleResponse;
    },
  };
}
