// No facilitator calls for forgeries: a plain 65-byte signature is checked here, by
// recovering the EIP-3009 signer; only a match (or a smart-account signature, which needs the
// chain) goes on to the facilitator's /verify.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { x402Client } from '@x402/core/client';
import { decodePaymentSignatureHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { FacilitatorClient } from '../../../src/payment/facilitatorClient.js';
import { createMemoryPaymentStore } from '../../../src/payment/memoryPaymentStore.js';
import { buildRequirements } from '../../../src/payment/offer.js';
import { createPaymentProcessor, type PaymentProcessor } from '../../../src/payment/paymentProcessor.js';
import type { ExactAuthorization } from '../../../src/payment/paymentPayload.js';
import { signerMismatch } from '../../../src/payment/signerCheck.js';
import { checkHeader } from '../../support/checkHeader.js';
import { BASE_TERMS, INVOICE_PDF_RESOURCE } from '../../fixtures/offerTerms.js';

const terms = BASE_TERMS;
const resource = INVOICE_PDF_RESOURCE;
const offer = buildRequirements(resource, terms);

/** A counting fake facilitator that would accept anything: only our own check stands in the way. */
function setup(offerTerms = terms) {
  const calls = { verify: 0 };
  const facilitator: FacilitatorClient = {
    verify: async () => (calls.verify++, { isValid: true }),
    settle: async () => assert.fail('never settled here'),
  };
  return {
    processor: createPaymentProcessor({
      terms: offerTerms,
      baseUrl: 'http://127.0.0.1',
      facilitator,
      store: createMemoryPaymentStore(),
    }),
    calls,
  };
}

/** A real payload as a buyer's x402 client signs it for the processor's challenge. */
async function signed(processor: PaymentProcessor, privateKey = generatePrivateKey()): Promise<PaymentPayload> {
  const challenge = await checkHeader(processor, resource, undefined, 'body');
  if (challenge.kind !== 'payment-required') throw new Error(challenge.kind);
  const client = new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(privateKey)));
  return client.createPaymentPayload(challenge.paymentRequired);
}
const exact = (payload: PaymentPayload) => payload.payload as { signature: string; authorization: ExactAuthorization };
const withPayload = (
  payload: PaymentPayload,
  change: Partial<{ signature: string; authorization: ExactAuthorization }>,
) => encodePaymentSignatureHeader({ ...payload, payload: { ...payload.payload, ...change } });

test('a real signature by authorization.from passes, and goes on to verify', async () => {
  const { processor, calls } = setup();
  const payload = await signed(processor);
  assert.equal(await signerMismatch(exact(payload).authorization, exact(payload).signature, offer), undefined);
  const check = await checkHeader(processor, resource, encodePaymentSignatureHeader(payload), 'body');
  if (check.kind !== 'claimed') return assert.fail(check.kind);
  assert.equal((await check.payment.verify()).kind, 'verified');
  assert.equal(calls.verify, 1);
});

test('forged plain signatures get a 402 invalid_signature and never reach the facilitator', async () => {
  const { processor, calls } = setup();
  const payload = await signed(processor);
  const { authorization, signature } = exact(payload);
  const otherKeysPayload = await signed(processor);
  const forgeries: [string, string][] = [
    ['garbage bytes', withPayload(payload, { signature: `0x${'ab'.repeat(65)}` })],
    ['random bytes', withPayload(payload, { signature: `0x${randomBytes(65).toString('hex')}` })],
    ['all zeros', withPayload(payload, { signature: `0x${'00'.repeat(65)}` })],
    [
      'a real signature claiming another payer',
      withPayload(payload, { authorization: { ...authorization, from: exact(otherKeysPayload).authorization.from } }),
    ],
    [
      'a real signature over another nonce',
      withPayload(payload, { authorization: { ...authorization, nonce: `0x${randomBytes(32).toString('hex')}` } }),
    ],
    [
      'another key’s signature over this authorization',
      withPayload(payload, { signature: exact(otherKeysPayload).signature }),
    ],
    [
      'a real signature with a flipped byte',
      withPayload(payload, {
        signature: `${signature.slice(0, 40)}${signature[40] === 'f' ? 'e' : 'f'}${signature.slice(41)}`,
      }),
    ],
  ];
  for (let i = 0; i < 100; i++)
    forgeries.push([
      `random ${i}`,
      withPayload(payload, {
        signature: `0x${randomBytes(65).toString('hex')}`,
        authorization: { ...authorization, nonce: `0x${randomBytes(32).toString('hex')}` },
      }),
    ]);
  for (const [name, header] of forgeries) {
    const check = await checkHeader(processor, resource, header, 'body');
    assert.equal(check.kind, 'payment-required', name);
    if (check.kind === 'payment-required') assert.equal(check.paymentRequired.error, 'invalid_signature', name);
  }
  assert.equal(calls.verify, 0, 'no facilitator call for any forgery');
  // Nothing was claimed by the forgeries: the buyer's own signature still goes through.
  assert.equal((await checkHeader(processor, resource, encodePaymentSignatureHeader(payload), 'body')).kind, 'claimed');
});

test('a signature over another EIP-712 domain (another token name) is refused', async () => {
  const { processor } = setup({ ...terms, eip712Name: 'USDC' }); // Base Sepolia's name, not mainnet's
  const payload = await signed(processor);
  assert.equal(
    await signerMismatch(exact(payload).authorization, exact(payload).signature, offer),
    'invalid_signature',
  );
});

test('smart-account signatures (ERC-1271 / ERC-6492, not 65 bytes) are left to the facilitator', async () => {
  const { processor, calls } = setup();
  const payload = await signed(processor);
  const erc6492 = `0x${'ab'.repeat(200)}${'6492'.repeat(16)}`;
  const check = await checkHeader(processor, resource, withPayload(payload, { signature: erc6492 }), 'body');
  if (check.kind !== 'claimed') return assert.fail(check.kind);
  await check.payment.verify();
  assert.equal(calls.verify, 1);
  assert.ok(decodePaymentSignatureHeader(withPayload(payload, { signature: erc6492 })));
});
