import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import type { SettleResponse } from './facilitatorClient.js';
import type { PaidResult, StoredAnswer } from './paymentStore.js';

/**
 * The outcome of a payment check (paymentProcessor.ts), free of any web framework. It
 * is a discriminated union; a fresh authorization comes back claimed but not yet verified, so the
 * caller can start the work while the facilitator verifies, and settles only after both the work
 * succeeded and verify said valid (the resource server's steps in coinbase/x402 specs/x402-specification-v2.md; docs/paying-and-x402.md).
 */
export type PaymentCheck =
  | PaymentRequiredCheck
  /** Paid earlier: the stored result again, no second charge. */
  | { kind: 'replayed'; result: PaidResult }
  /** An earlier settlement of unknown outcome is now confirmed: the PDF rendered then, with its receipt. */
  | { kind: 'collected'; result: PaidResult }
  /** An earlier settlement of unknown outcome turned out to have failed for good: nothing was charged. */
  | SettleFailed
  /** A fresh authorization, locked for this request: verify it (and do the work meanwhile). */
  | { kind: 'claimed'; payment: ClaimedPayment };

/**
 * `paymentRequired` is the whole challenge (its discovery-only extensions too); the transport
 * decides what of it travels where (http/paymentEncoding.ts). `paymentRequired.error` is an x402
 * reason code; `message` says it for people (the 402's JSON body).
 */
export type PaymentRequiredCheck = {
  kind: 'payment-required';
  paymentRequired: PaymentRequired;
  message: string;
};
export type SettleFailed = { kind: 'settle-failed'; receipt: SettleResponse };
export type SettleOutcome = { kind: 'settled'; receipt: SettleResponse } | SettleFailed;
type Verdict = { kind: 'verified'; payer: string } | PaymentRequiredCheck;

/** What the paid work produced (its whole answer), kept with the claim while a settlement's outcome is unknown. */
export type WorkResult = StoredAnswer;

export interface ClaimedPayment {
  /** The authorization's signer and nonce, for the log. */
  from: string;
  nonce: string;
  /**
   * Asks the facilitator. Invalid: the claim is freed and the answer is a 402 challenge; a
   * facilitator failure frees it too and throws facilitator_unavailable / facilitator_timeout.
   */
  verify(): Promise<Verdict>;
  /** The request ends before it was verified (e.g. no render capacity): free the authorization. */
  release(): Promise<void>;
  /**
   * Call only after the work succeeded and verify said valid. When the outcome is unknown, parks
   * the work for a re-send of the same signature to collect, and throws settlement_unknown.
   */
  settle(work: WorkResult): Promise<SettleOutcome>;
  /** The work failed after a valid verify: nothing was settled, free the authorization for a retry. */
  abandon(): Promise<void>;
  /** Keep the paid result so a re-sent signature gets it again without a second charge. */
  complete(result: WorkResult, settled: SettleOutcome & { kind: 'settled' }): Promise<void>;
}

export type PaymentEvent =
  | 'challenged'
  | 'invalid'
  | 'verified'
  | 'settled'
  | 'settle_failed'
  | 'settle_unknown'
  | 'replayed'
  | 'collected'
  | 'abandoned'
  /** Settled, but the offer-receipt receipt could not be signed: delivered without it. */
  | 'receipt_unsigned';

/**
 * Who is about to be verified with the facilitator: `proven` when the authorization's 65-byte
 * signature recovered to `from` (signerCheck.ts); a smart account's signature (any other length)
 * can't be checked here, so `from` is only claimed.
 */
export interface Payer {
  from: string;
  proven: boolean;
}

/**
 * Spends a payer's budget (the HTTP layer's payer rate limit) before the facilitator hears of a
 * fresh authorization; throws to refuse it (the claim is then given back). Called only for a
 * payload that passed every local check, never for a forgery, a replay or a refused body.
 */
export type PayerAdmission = (payer: Payer) => Promise<void>;

/** One authorization under our lock: everything the steps after the claim need. */
export interface Claim {
  key: string;
  payload: PaymentPayload;
  offer: PaymentRequirements;
  expiresAtMs: number;
  details: { payer: string; nonce: string };
  /** The stored result or parked work of this authorization is handed only to this signature. */
  signatureHash: string;
}

/** Exactly the answer's fields: a caller's object may carry more, which must not reach the store. */
export const storedAnswerOf = ({ status, contentType, headers, body }: WorkResult): StoredAnswer => ({
  status,
  contentType,
  headers,
  body,
});
