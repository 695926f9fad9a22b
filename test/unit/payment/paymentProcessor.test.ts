import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { FacilitatorClient } from '../../../src/payment/facilitatorClient.js';
import { createMemoryPaymentStore } from '../../../src/payment/memoryPaymentStore.js';
import { buildRequirements } from '../../../src/payment/offer.js';
import { createPaymentProcessor } from '../../../src/payment/paymentProcessor.js';
import { checkHeader } from '../../support/checkHeader.js';
import { BASE_TERMS, INVOICE_PDF_RESOURCE } from '../../fixtures/offerTerms.js';

/** The processor with a scripted facilitator that counts its calls. */
const terms = BASE_TERMS;
const resource = INVOICE_PDF_RESOURCE;

function setup() {
  const calls = { verify: 0, settle: 0 };
  const facilitator: FacilitatorClient = {
    async verify() {
      calls.verify++;
      return { isValid: true };
    },
    async settle() {
      calls.settle++;
      return { success: true, transaction: `0x${'ab'.repeat(32)}`, network: terms.network };
    },
  };
  const processor = createPaymentProcessor({
    terms,
    baseUrl: 'http://127.0.0.1',
    facilitator,
    store: createMemoryPaymentStore(),
  });
  return { processor, calls };
}

function header(validBefore: string): string {
  const offer = buildRequirements(resource, terms);
  const authorization = {
    from: `0x${randomBytes(20).toString('hex')}`,
    to: terms.payTo,
    value: offer.amount,
    validAfter: '0',
    validBefore,
    nonce: `0x${randomBytes(32).toString('hex')}`,
  };
  // Smart-account length (not 65 bytes): no local signer check, the scripted facilitator judges it
  // (signerCheck.test.ts covers plain ECDSA signatures).
  return encodePaymentSignatureHeader({
    x402Version: 2,
    accepted: offer,
    payload: { signature: `0x${'cd'.repeat(97)}`, authorization },
  } as never);
}
const inSeconds = (seconds: number) => String(Math.floor(Date.now() / 1000) + seconds);

test('an authorization past its window gets a 402 that says so, and leaves no claim behind', async () => {
  const { processor, calls } = setup();
  const expired = header(inSeconds(3));
  for (let i = 0; i < 2; i++) {
    const check = await checkHeader(processor, resource, expired, 'body');
    assert.equal(check.kind, 'payment-required');
    if (check.kind === 'payment-required') {
      assert.equal(check.paymentRequired.error, 'invalid_exact_evm_payload_authorization_valid_before');
      assert.match(check.message, /expired/);
    }
  }
  assert.equal(calls.verify, 0);
});

test('a re-send of a paid signature close to its validBefore still gets the stored result', async () => {
  let now = Date.now();
  const calls = { verify: 0, settle: 0 };
  const processor = createPaymentProcessor({
    terms,
    baseUrl: 'http://127.0.0.1',
    now: () => now,
    store: createMemoryPaymentStore({ now: () => now }),
    facilitator: {
      verify: async () => (calls.verify++, { isValid: true }),
      settle: async () => (calls.settle++, { success: true, transaction: '0x01', network: terms.network }),
    },
  });
  const signature = header(String(Math.floor(now / 1000) + 60));
  const first = await checkHeader(processor, resource, signature, 'body');
  assert.equal(first.kind, 'claimed');
  if (first.kind !== 'claimed') return;
  assert.equal((await first.payment.verify()).kind, 'verified');
  const work = {
    status: 200,
    contentType: 'application/pdf',
    headers: { 'X-Page-Count': '1' },
    body: Buffer.from('%PDF-1'),
  };
  const settled = await first.payment.settle(work);
  assert.equal(settled.kind, 'settled');
  if (settled.kind === 'settled') await first.payment.complete(work, settled);

  now += 57_000; // 3 s before validBefore: too late to settle, not too late to collect
  const again = await checkHeader(processor, resource, signature, 'body');
  assert.equal(again.kind, 'replayed');
  if (again.kind === 'replayed')
    assert.deepEqual(
      { ...again.result, body: again.result.body.toString() },
      {
        ...work,
        body: '%PDF-1',
        fingerprint: 'body',
        receipt: again.result.receipt,
        signatureHash: again.result.signatureHash,
      },
      'the whole answer is kept',
    );
  assert.equal(calls.settle, 1);
});

test('a claim released before verify (no render capacity): no verify, and the authorization is free again', async () => {
  const { processor, calls } = setup();
  const signature = header(inSeconds(120));
  const first = await checkHeader(processor, resource, signature, 'body');
  assert.equal(first.kind, 'claimed');
  if (first.kind !== 'claimed') return;
  await first.payment.release();
  assert.equal(calls.verify, 0);
  const retry = await checkHeader(processor, resource, signature, 'body');
  assert.equal(retry.kind, 'claimed');
  if (retry.kind === 'claimed') assert.equal((await retry.payment.verify()).kind, 'verified');
  assert.equal(calls.verify, 1);
});

test('a claim is locked while it is verified and worked on: a duplicate waits, then gets the stored result', async () => {
  const { processor, calls } = setup();
  const signature = header(inSeconds(120));
  const first = await checkHeader(processor, resource, signature, 'body');
  if (first.kind !== 'claimed') return assert.fail(first.kind);
  const duplicate = checkHeader(processor, resource, signature, 'body');
  await first.payment.verify();
  const work = {
    status: 200,
    contentType: 'application/pdf',
    headers: { 'X-Page-Count': '1' },
    body: Buffer.from('%PDF-1'),
  };
  const settled = await first.payment.settle(work);
  if (settled.kind !== 'settled') return assert.fail(settled.kind);
  await first.payment.complete(work, settled);
  const second = await duplicate;
  assert.equal(second.kind, 'replayed');
  assert.equal(calls.settle, 1);
});

test('settle refuses to run before verify said valid', async () => {
  const { processor, calls } = setup();
  const check = await checkHeader(processor, resource, header(inSeconds(120)), 'body');
  if (check.kind !== 'claimed') return assert.fail(check.kind);
  await assert.rejects(
    check.payment.settle({
      status: 200,
      contentType: 'application/pdf',
      headers: { 'X-Page-Count': '1' },
      body: Buffer.from('%PDF-1'),
    }),
    /not verified/,
  );
  assert.equal(calls.settle, 0);
});

test('verify saying invalid answers a 402 challenge and frees the authorization', async () => {
  let valid = false;
  const processor = createPaymentProcessor({
    terms,
    baseUrl: 'http://127.0.0.1',
    store: createMemoryPaymentStore(),
    facilitator: {
      verify: async () =>
        valid ? { isValid: true } : { isValid: false, invalidReason: 'invalid_exact_evm_payload_signature' },
      settle: async () => assert.fail('never settled'),
    },
  });
  const signature = header(inSeconds(120));
  const check = await checkHeader(processor, resource, signature, 'body');
  if (check.kind !== 'claimed') return assert.fail(check.kind);
  const verdict = await check.payment.verify();
  assert.equal(verdict.kind, 'payment-required');
  if (verdict.kind === 'payment-required')
    assert.equal(verdict.paymentRequired.error, 'invalid_exact_evm_payload_signature');
  valid = true;
  const again = await checkHeader(processor, resource, signature, 'body');
  assert.equal(again.kind, 'claimed', 'not locked by the refused attempt');
});

test('a validBefore of 2^256 - 1 is accepted without overflowing the claim expiry', async () => {
  const { processor } = setup();
  const check = await checkHeader(processor, resource, header((2n ** 256n - 1n).toString()), 'body');
  assert.equal(check.kind, 'claimed');
});

test('the process dies between the transfer and storing the result: a re-send collects the PDF once the lease runs out', async () => {
  let now = Date.now();
  const calls = { settle: 0 };
  const transaction = `0x${'ef'.repeat(32)}`;
  const processor = () =>
    createPaymentProcessor({
      terms,
      baseUrl: 'http://127.0.0.1',
      now: () => now,
      duplicateWaitMs: 0,
      store,
      facilitator: {
        verify: async () => ({ isValid: true }),
        // The chain: the first settle transfers; any later one hears that the nonce is used.
        settle: async () =>
          ++calls.settle === 1
            ? { success: true, transaction, network: terms.network }
            : {
                success: false,
                errorReason: 'invalid_exact_evm_nonce_already_used',
                transaction: '',
                network: terms.network,
              },
      },
    });
  const store = createMemoryPaymentStore({ now: () => now, parkedLeaseMs: 60_000 });
  const signature = header(inSeconds(300));
  const dying = processor();
  const first = await checkHeader(dying, resource, signature, 'body');
  if (first.kind !== 'claimed') return assert.fail(first.kind);
  await first.payment.verify();
  const work = { status: 200, contentType: 'application/pdf', headers: {}, body: Buffer.from('%PDF-paid') };
  assert.equal((await first.payment.settle(work)).kind, 'settled');
  // …and the process is killed here: `complete` never runs.

  const other = processor(); // another replica, same store
  await assert.rejects(
    checkHeader(other, resource, signature, 'body'),
    /payment_in_progress|being processed/,
    'held while the first might still complete',
  );
  now += 61_000;
  const resent = await checkHeader(other, resource, signature, 'body');
  assert.equal(resent.kind, 'collected');
  if (resent.kind === 'collected') assert.ok(resent.result.body.equals(work.body), 'the PDF that was paid for');
  assert.equal(calls.settle, 2, 'settled once on chain; the re-settle only heard "already used"');
});
