import type { SettleResponse } from './facilitatorClient.js';

/**
 * What a facilitator's settle answer says about the transfer:
 *  - settled: it happened now;
 *  - already-settled: the authorization was already used on chain;
 *  - failed: it did not happen and cannot have happened (nothing was charged);
 *  - unknown: it may or may not have happened (never answered with a 402).
 */
export type SettlementOutcome = 'settled' | 'already-settled' | 'failed' | 'unknown';

/** The facilitator says the transfer was sent but not yet confirmed (`settlement_pending`). */
const PENDING = /pending/i;

/**
 * The authorization's nonce is used on chain. The @x402/evm facilitator answers
 * `invalid_exact_evm_nonce_already_used` (from the token's "authorization is used or canceled"
 * revert, or its own authorizationState check). Only snake_case reason codes count: a free-text
 * "nonce has already been used" is about the facilitator's own transaction nonce, not ours.
 */
const ALREADY_USED = /nonce_already_used|authorization_(already_)?used/i;

/**
 * Reasons that prove the authorization cannot be executed at all, whatever happened before: it
 * never moved money. (The token checks "used" before the balance, so a balance failure on a
 * re-send also means the first attempt did not go through.)
 */
const NEVER_EXECUTABLE =
  /insufficient|exceeds_balance|signature|recipient_mismatch|value_mismatch|authorization_value|network_mismatch|invalid_scheme|eip712|token_name|token_version|valid_after/i;

/**
 * The first settle of an authorization: success is settled, pending is unknown, and any other
 * answer is a definite failure of that one attempt (the existing x402 reading; a reverted
 * transaction is final, and "already used" means someone else used the nonce first).
 *
 * A re-settle after an unknown outcome reads answers differently, because our own first attempt
 * may have landed or may still land: "already used" means it went through; only reasons that
 * prove the authorization can't execute are failures; everything else (pending, a reverted second
 * transaction that may have lost the race to the first, an expiry checked before the chain is
 * asked, a reason we don't know) stays unknown until the client re-sends again.
 */
export function classifySettlement(receipt: SettleResponse, context: { resettle: boolean }): SettlementOutcome {
  if (receipt.success) return 'settled';
  // Reason codes only: error messages quote whole RPC errors, ABI signatures included.
  const reason = receipt.errorReason ?? '';
  if (PENDING.test(reason)) return 'unknown';
  if (!context.resettle) return 'failed';
  if (ALREADY_USED.test(reason)) return 'already-settled';
  if (NEVER_EXECUTABLE.test(reason)) return 'failed';
  return 'unknown';
}
