// Replay bound to the signature: from and nonce are public once an authorization is on
// chain, so a header that copies them with any other signature must get neither the stored PDF nor
// a re-settlement of parked work: it gets the 402 challenge, and nothing changes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { x402Client } from '@x402/core/client';
import { decodePaymentSignatureHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { FacilitatorError, type FacilitatorClient } from '../../../src/payment/facilitatorClient.js';
import { createMemoryPaymentStore } from '../../../src/payment/memoryPaymentStore.js';
import { createPaymentProcessor, type PaymentProcessor } from '../../../src/payment/paymentProcessor.js';
import { checkHeader } from '../../support/checkHeader.js';
import { BASE_TERMS, INVOICE_PDF_RESOURCE } from '../../fixtures/offerTerms.js';

const terms = BASE_TERMS;
const resource = INVOICE_PDF_RESOURCE;
const work = { status: 200, contentType: 'application/pdf', headers: {}, body: Buffer.from('%PDF-1 the paid invoice') };

/** A fake facilitator (scripted answers, counted calls): the processor is what is under test. */
function setup(settleAnswers: ('ok' | 'timeout')[]) {
  const calls = { verify: 0, settle: 0 };
  const facilitator: FacilitatorClient = {
    async verify() {
      calls.verify++;
      return { isValid: true };
    },
    async settle() {
      const answer = settleAnswers[calls.settle++] ?? 'ok';
      if (answer === 'timeout') throw new FacilitatorError('timeout', 'settle', 'no answer in time');
      return { success: true, transaction: `0x${'ab'.repeat(32)}`, network: terms.network };
    },
  };
  const processor = createPaymentProcessor({
    terms,
    baseUrl: 'http://127.0.0.1',
    facilitator,
    store: createMemoryPaymentStore(),
    duplicateWaitMs: 0,
  });
  return { processor, calls };
}

/** A real signature by a fresh key, as a buyer's client makes it. */
async function signedHeader(processor: PaymentProcessor): Promise<string> {
  const challenge = await checkHeader(processor, resource, undefined, 'body');
  if (challenge.kind !== 'payment-required') throw new Error(challenge.kind);
  const client = new x402Client().register(
    'eip155:8453',
    new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())),
  );
  return encodePaymentSignatureHeader(await client.createPaymentPayload(challenge.paymentRequired));
}

/** The same authorization (from, nonce, everything public) with another signature. */
function forged(header: string, signature: string): string {
  const payload = decodePaymentSignatureHeader(header);
  return encodePaymentSignatureHeader({ ...payload, payload: { ...payload.payload, signature } });
}
// A plain ECDSA length and a smart-account (ERC-1271/6492) length: the store must refuse both.
const FORGERIES = [`0x${'ee'.repeat(65)}`, `0x${'ee'.repeat(300)}`];

test('after a settled purchase, another signature over the same authorization gets the 402, not the PDF', async () => {
  const { processor, calls } = setup(['ok']);
  const header = await signedHeader(processor);
  const first = await checkHeader(processor, resource, header, 'body');
  if (first.kind !== 'claimed') return assert.fail(first.kind);
  assert.equal((await first.payment.verify()).kind, 'verified');
  const settled = await first.payment.settle(work);
  if (settled.kind !== 'settled') return assert.fail(settled.kind);
  await first.payment.complete(work, settled);

  for (const signature of FORGERIES) {
    const check = await checkHeader(processor, resource, forged(header, signature), 'body');
    assert.equal(check.kind, 'payment-required', `forged ${signature.length}-char signature`);
    if (check.kind === 'payment-required') assert.equal(check.paymentRequired.error, 'invalid_signature');
  }
  assert.deepEqual(calls, { verify: 1, settle: 1 });
  // The buyer's own re-send still gets the stored result.
  const again = await checkHeader(processor, resource, header, 'body');
  assert.equal(again.kind, 'replayed');
  if (again.kind === 'replayed') assert.ok(again.result.body.equals(work.body));
});

test('a parked settlement is neither re-settled nor released for another signature; its own signature collects it', async () => {
  const { processor, calls } = setup(['timeout', 'ok']);
  const header = await signedHeader(processor);
  const first = await checkHeader(processor, resource, header, 'body');
  if (first.kind !== 'claimed') return assert.fail(first.kind);
  await first.payment.verify();
  await assert.rejects(first.payment.settle(work), /did not confirm the settlement/);
  assert.equal(calls.settle, 1);

  for (const signature of FORGERIES) {
    const check = await checkHeader(processor, resource, forged(header, signature), 'body');
    assert.equal(check.kind, 'payment-required', `forged ${signature.length}-char signature`);
  }
  assert.equal(calls.settle, 1, 'nothing re-settled with a forged signature');

  const collected = await checkHeader(processor, resource, header, 'body');
  assert.equal(collected.kind, 'collected', 'still parked, and handed to the signature that was settled');
  if (collected.kind === 'collected') assert.ok(collected.result.body.equals(work.body));
  assert.equal(calls.settle, 2);
});
