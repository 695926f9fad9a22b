import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifySettlement, type SettlementOutcome } from '../../../src/payment/settlementOutcome.js';

const network = 'eip155:8453';
const failed = (errorReason: string, errorMessage?: string) => ({
  success: false,
  transaction: '',
  network,
  errorReason,
  ...(errorMessage ? { errorMessage } : {}),
});

// [answer, first settle, re-settle after an unknown outcome]
const cases: [
  string,
  ReturnType<typeof failed> | { success: true; transaction: string; network: string },
  SettlementOutcome,
  SettlementOutcome,
][] = [
  ['success', { success: true, transaction: '0xabc', network }, 'settled', 'settled'],
  ['settlement_pending', failed('settlement_pending'), 'unknown', 'unknown'],
  ['the nonce is used on chain', failed('invalid_exact_evm_nonce_already_used'), 'failed', 'already-settled'],
  ['insufficient balance', failed('invalid_exact_evm_insufficient_balance'), 'failed', 'failed'],
  ['invalid signature', failed('invalid_exact_evm_signature'), 'failed', 'failed'],
  ['recipient mismatch', failed('invalid_exact_evm_recipient_mismatch'), 'failed', 'failed'],
  // A reverted second transaction may have lost the race to our first one: not proof of anything.
  ['reverted transaction', failed('invalid_exact_evm_transaction_failed'), 'failed', 'unknown'],
  // Checked before the chain is asked: says nothing about the first attempt.
  ['expired', failed('invalid_exact_evm_payload_authorization_valid_before'), 'failed', 'unknown'],
  ['a reason nobody knows', failed('something_new'), 'failed', 'unknown'],
  // Free text about the facilitator's own transaction nonce is not our authorization being used.
  [
    'gas nonce message',
    failed('invalid_exact_evm_transaction_failed', 'nonce has already been used'),
    'failed',
    'unknown',
  ],
];

for (const [name, receipt, first, resettle] of cases) {
  test(`settle answer "${name}": ${first} on the first settle, ${resettle} on a re-settle`, () => {
    assert.equal(classifySettlement(receipt, { resettle: false }), first);
    assert.equal(classifySettlement(receipt, { resettle: true }), resettle);
  });
}
