import { setTimeout as sleep } from 'node:timers/promises';
import type { SettleResponse } from './facilitatorClient.js';

/**
 * Shared payment state: a single-flight claim per authorization (network, asset, from, nonce) and
 * the paid result, kept until the authorization expires. One small interface so an in-memory
 * store (one instance) and a Redis store (many instances) give the same guarantees.
 *
 * The life of one authorization's entry:
 *
 *   (none) ──claim──► claimed ──complete──► done (the result, for re-sends)
 *                        │  └──release──► (none)          (nothing was settled)
 *                        └──park──► parked ──claim──► parked, held by one re-sender
 *                                     ▲                 ├──complete──► done
 *                                     └─────park────────┤
 *                                                       └──release──► (none)
 *
 * "Parked" is a settlement whose outcome is unknown (the facilitator timed out, failed, or said
 * pending; or the process settling it died, which is why a first settlement parks its work, held,
 * before the settle call): the rendered PDF is kept with the claim so that a re-send of the same signature can
 * settle again and collect it. A parked entry is handed to one re-sender at a time, for at most
 * the store's lease (a re-sender that dies doesn't keep it from the next one).
 */
/** A paid answer whole, so that a re-send is answered exactly what the first answer said. */
export interface StoredAnswer {
  /** 200: only a 200 is settled for; kept so that nothing about the answer is assumed on replay. */
  status: number;
  contentType: string;
  /** Content-Disposition, X-Page-Count, ...: the work's own headers, not the transport's. */
  headers: Record<string, string>;
  body: Buffer;
}

export interface PaidResult extends StoredAnswer {
  /** Which request body was paid for: a re-sent signature with another body is refused. */
  fingerprint: string;
  /** The settlement as delivered (with its signed receipt when receipts are on): a re-send gets it again. */
  receipt: SettleResponse;
  /** Hash of the signature that paid: only that signature gets the result again (signatureHash.ts). */
  signatureHash: string;
}

/** The work of a payment whose settlement outcome is unknown, waiting to be collected. */
export interface PendingResult extends StoredAnswer {
  fingerprint: string;
  /** A transaction hash the facilitator named (settlement_pending), or '' when none is known. */
  transaction: string;
  /** Hash of the signature that was settled: only that signature may settle it again and collect it. */
  signatureHash: string;
}

export type ClaimOutcome =
  | { kind: 'claimed' }
  | { kind: 'busy' }
  | { kind: 'done'; result: PaidResult }
  /** A parked settlement, now held by this caller until it completes, releases or parks it again. */
  | { kind: 'parked'; pending: PendingResult };

/** How long a re-sender holds a parked settlement before another one may take it over. */
export const DEFAULT_PARKED_LEASE_MS = 60_000;

export interface PaymentStore {
  /** Take the authorization for processing until `expiresAtMs`, unless someone holds it or it is paid. */
  claim(key: string, expiresAtMs: number): Promise<ClaimOutcome>;
  /** Nothing was settled (or a parked settlement failed for good): let the authorization be tried again. Never drops a result. */
  release(key: string): Promise<void>;
  /** Settled: keep the result for re-sends of the same signature until `expiresAtMs`. */
  complete(key: string, result: PaidResult, expiresAtMs: number): Promise<void>;
  /**
   * The settlement outcome is unknown: keep the work, locked, for a re-send to collect. Never
   * replaces a result. With `hold`, the caller keeps it for the store's lease (it is about to
   * settle): re-sends wait, and take it over only if the caller dies before completing.
   */
  park(key: string, pending: PendingResult, expiresAtMs: number, options?: { hold?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/**
 * Claims `key`, waiting while another request holds it (a duplicate in flight) for at most
 * `waitMs`, polling every 100 ms: the outcome once it is not busy, else `whenStillBusy()` is thrown.
 */
export async function claimWhenFree(
  store: PaymentStore,
  key: string,
  expiresAtMs: number,
  wait: { waitMs: number; now: () => number; whenStillBusy: () => Error },
): Promise<Exclude<ClaimOutcome, { kind: 'busy' }>> {
  const deadline = wait.now() + wait.waitMs;
  for (;;) {
    const outcome = await store.claim(key, expiresAtMs);
    if (outcome.kind !== 'busy') return outcome;
    if (wait.now() >= deadline) throw wait.whenStillBusy();
    await sleep(100);
  }
}

export function authorizationKey(network: string, asset: string, from: string, nonce: string): string {
  return `x402:${network}:${asset.toLowerCase()}:${from.toLowerCase()}:${nonce.toLowerCase()}`;
}
