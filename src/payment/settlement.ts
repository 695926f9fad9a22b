import type { FacilitatorClient, SettleResponse } from './facilitatorClient.js';
import type { PricedResource } from './offer.js';
import type { Claim, PaymentCheck, PaymentEvent } from './paymentCheck.js';
import { settlementUnknown } from './paymentErrors.js';
import type { PaidResult, PaymentStore, PendingResult } from './paymentStore.js';
import type { ReceiptSigner } from './receipts.js';
import { classifySettlement } from './settlementOutcome.js';

export interface SettlementDependencies {
  baseUrl: string;
  facilitator: FacilitatorClient;
  store: PaymentStore;
  receipts?: ReceiptSigner | undefined;
  emit: (event: PaymentEvent, details: { payer?: string; nonce?: string; reason?: string }) => void;
}

/**
 * The settle step of a claimed authorization, for a first settlement (claimedPayment.ts) and for
 * the re-send that collects an earlier settlement of unknown outcome (`collect`).
 */
export function createSettlement({ baseUrl, facilitator, store, receipts, emit }: SettlementDependencies) {
  // The offer-receipt extension (receipts.ts): the settlement as delivered carries the signed receipt.
  const withReceipt = async (
    claim: Claim,
    receipt: SettleResponse,
    resource: PricedResource,
  ): Promise<SettleResponse> => {
    if (!receipts || !receipt.success) return receipt;
    try {
      return await receipts.signReceipt(
        { ...receipt, payer: receipt.payer ?? claim.details.payer },
        `${baseUrl}${resource.path}`,
      );
    } catch (error) {
      // Paid and done: deliver without a receipt rather than lose the result.
      emit('receipt_unsigned', { ...claim.details, reason: String(error) });
      return receipt;
    }
  };

  /**
   * One settle call and what it means, for a first settlement and for a re-settle alike: unknown
   * parks the work with the claim (never a 402: the transfer may have happened) and throws; a
   * definite failure frees the authorization; success is the caller's to record.
   */
  async function settleOnce(claim: Claim, pending: PendingResult, resettle: boolean) {
    const { details } = claim;
    let receipt: SettleResponse;
    try {
      // Always OUR requirements: the client's copy in `accepted` is unsigned.
      receipt = await facilitator.settle(claim.payload, claim.offer);
    } catch (error) {
      emit('settle_unknown', { ...details, reason: (error as Error).message });
      await park(claim, pending);
      throw settlementUnknown(error);
    }
    const outcome = classifySettlement(receipt, { resettle });
    if (outcome === 'unknown') {
      emit('settle_unknown', { ...details, reason: receipt.errorReason });
      await park(claim, { ...pending, transaction: receipt.transaction || pending.transaction });
      throw settlementUnknown(new Error(receipt.errorReason));
    }
    if (outcome === 'failed') {
      await store.release(claim.key).catch(() => undefined); // it expires at validBefore anyway
      emit('settle_failed', { ...details, reason: receipt.errorReason });
      return { kind: 'settle-failed' as const, receipt };
    }
    return { kind: outcome, receipt };
  }

  /** Parks the work of an unknown settlement; if even that fails, the claim still holds the nonce. */
  async function park(claim: Claim, pending: PendingResult) {
    try {
      await store.park(claim.key, pending, claim.expiresAtMs);
    } catch (error) {
      emit('settle_unknown', {
        ...claim.details,
        reason: `the work could not be kept for collection: ${String(error)}`,
      });
    }
  }

  /**
   * A re-send of a signature whose settlement outcome was unknown. Verify can't tell (it answers
   * "nonce already used" once the transfer happened), so settle again and read the answer the
   * re-settle way (settlementOutcome.ts).
   */
  async function collect(claim: Claim, pending: PendingResult, resource: PricedResource): Promise<PaymentCheck> {
    const step = await settleOnce(claim, pending, true);
    if (step.kind === 'settle-failed') return step;
    // Settled now, or the first settlement went through (the facilitator says the authorization
    // is already used, and only this signature's holder could have used it: see docs/paying-and-x402.md).
    const { receipt } = step;
    const confirmed: SettleResponse = await withReceipt(
      claim,
      step.kind === 'settled'
        ? receipt
        : {
            success: true,
            transaction: pending.transaction || receipt.transaction || '',
            network: receipt.network || claim.offer.network,
            payer: receipt.payer ?? claim.details.payer,
          },
      resource,
    );
    const { transaction: _transaction, ...answer } = pending;
    const result: PaidResult = { ...answer, receipt: confirmed };
    try {
      await store.complete(claim.key, result, claim.expiresAtMs);
    } catch {
      // Paid and rendered: deliver anyway. The entry stays parked; a later re-send settles again,
      // hears "already used" and gets the same PDF.
    }
    emit('collected', {
      ...claim.details,
      reason: step.kind === 'settled' ? 'settled on re-send' : receipt.errorReason,
    });
    return { kind: 'collected', result };
  }

  return { settleOnce, withReceipt, collect };
}

export type Settlement = ReturnType<typeof createSettlement>;
