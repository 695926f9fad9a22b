import type { SettleResponse } from './facilitatorClient.js';
import type { PaidResult, PendingResult } from './paymentStore.js';

// How a Redis entry's fields (redisScripts.ts) map to and from the store's results.

/**
 * The settlement as kept: its JSON. An entry written by a version that kept the PAYMENT-RESPONSE
 * header value holds base64 of the same JSON; it lives until its authorization's validBefore (at
 * most a day), so a rolling upgrade still hands it back.
 */
function storedReceipt(text: string): SettleResponse {
  const json = text.startsWith('{') ? text : Buffer.from(text, 'base64').toString('utf8');
  return JSON.parse(json) as SettleResponse;
}

/** A paid result as complete() writes it: every field present, or the entry is refused as incomplete. */
export function paidResult([fingerprint, contentType, receipt, body, signature, head]: (Buffer | null)[]): PaidResult {
  if (!fingerprint || !contentType || !receipt || !body || !signature || !head)
    throw new Error('the stored payment result is incomplete');
  return {
    fingerprint: fingerprint.toString(),
    contentType: contentType.toString(),
    receipt: storedReceipt(receipt.toString()),
    body,
    signatureHash: signature.toString(),
    ...readHead(head),
  };
}

/** A parked settlement as park() writes it: every field present, or the entry is refused as incomplete. */
export function pendingResult([
  fingerprint,
  contentType,
  transaction,
  body,
  signature,
  head,
]: (Buffer | null)[]): PendingResult {
  if (!fingerprint || !contentType || !transaction || !body || !signature || !head)
    throw new Error('the parked settlement is incomplete');
  return {
    fingerprint: fingerprint.toString(),
    contentType: contentType.toString(),
    transaction: transaction.toString(),
    body,
    signatureHash: signature.toString(),
    ...readHead(head),
  };
}

/** The answer's status and headers, one JSON field beside the raw body. */
export const headOf = (answer: { status: number; headers: Record<string, string> }) =>
  JSON.stringify({ status: answer.status, headers: answer.headers });

/** The answer's status and headers as headOf wrote them. */
function readHead(head: Buffer): { status: number; headers: Record<string, string> } {
  const { status, headers } = JSON.parse(head.toString()) as { status: number; headers: Record<string, string> };
  return { status, headers };
}
