import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import type { PaymentRequired } from '@x402/core/types';
import {
  extractOffersFromPaymentRequired,
  verifyOfferSignatureEIP712,
  verifyReceiptSignatureEIP712,
  type EIP712SignedOffer,
  type EIP712SignedReceipt,
} from '@x402/extensions/offer-receipt';
import { generatePrivateKey } from 'viem/accounts';
import { createReceiptSigner } from '../../../src/payment/receipts.js';

const signer = createReceiptSigner(generatePrivateKey());
const URL = 'https://invoices.example/v1/invoices.zip';
const PAYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const settlement = { success: true, transaction: `0x${'ab'.repeat(32)}`, network: 'eip155:8453', payer: PAYER };

const receiptOf = (settled: object) =>
  (settled as { extensions: { 'offer-receipt': { info: { receipt: EIP712SignedReceipt } } } }).extensions[
    'offer-receipt'
  ].info.receipt;
const recovered = async (receipt: EIP712SignedReceipt) => {
  try {
    return (await verifyReceiptSignatureEIP712(receipt)).signer;
  } catch {
    return undefined; // a signature that doesn't even parse verifies nothing
  }
};

test('a settlement gets a receipt that the SDK verifies to the signer, with URL, payer, network, time and transaction', async () => {
  const before = Math.floor(Date.now() / 1000);
  const receipt = receiptOf(await signer.signReceipt(settlement, URL));
  assert.equal(receipt.format, 'eip712');
  const { signer: address, payload } = await verifyReceiptSignatureEIP712(receipt);
  assert.equal(address, signer.address);
  assert.equal(payload.resourceUrl, URL);
  assert.equal(payload.payer, PAYER);
  assert.equal(payload.network, 'eip155:8453');
  assert.equal(payload.transaction, settlement.transaction);
  assert.ok(payload.issuedAt >= before && payload.issuedAt <= before + 5);
  assert.equal(signer.kid, `did:pkh:eip155:1:${signer.address}`);
});

test('a changed payer, URL, transaction or signature byte no longer verifies to the signer', async () => {
  const receipt = receiptOf(await signer.signReceipt(settlement, URL));
  const tampered: [string, EIP712SignedReceipt][] = [
    ['payer', { ...receipt, payload: { ...receipt.payload, payer: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' } }],
    ['url', { ...receipt, payload: { ...receipt.payload, resourceUrl: 'https://invoices.example/v1/invoice.pdf' } }],
    ['transaction', { ...receipt, payload: { ...receipt.payload, transaction: `0x${'cd'.repeat(32)}` } }],
    ['issuedAt', { ...receipt, payload: { ...receipt.payload, issuedAt: receipt.payload.issuedAt + 1 } }],
    [
      'signature byte',
      {
        ...receipt,
        signature:
          receipt.signature.slice(0, 10) + (receipt.signature[10] === '0' ? '1' : '0') + receipt.signature.slice(11),
      },
    ],
  ];
  assert.equal(await recovered(receipt), signer.address, 'the untouched receipt verifies');
  for (const [name, changed] of tampered) assert.notEqual(await recovered(changed), signer.address, name);
});

test('a changed byte of the delivered file no longer matches its digest', () => {
  const file = Buffer.from('%PDF-1.7 the delivered bytes');
  const digest = createHash('sha256').update(file).digest('hex');
  const changed = Buffer.from(file);
  changed[5] = changed[5]! ^ 1;
  assert.notEqual(createHash('sha256').update(changed).digest('hex'), digest);
});

test('a failed settlement gets no receipt', async () => {
  const failed = { success: false, transaction: '', network: 'eip155:8453', errorReason: 'insufficient_funds' };
  assert.deepEqual(await signer.signReceipt(failed, URL), failed);
});

test('the 402 carries one signed offer per accepts entry, verifiable to the signer', async () => {
  const required: PaymentRequired = {
    x402Version: 2,
    resource: { url: URL, description: 'batch', mimeType: 'application/zip' },
    accepts: [
      {
        scheme: 'exact',
        network: 'eip155:8453',
        amount: '100000',
        asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        payTo: PAYER,
        maxTimeoutSeconds: 300,
        extra: { name: 'USD Coin', version: '2' },
      },
    ],
    extensions: { bazaar: { info: {} } },
  };
  const signed = await signer.signOffers(required);
  assert.ok(signed.extensions?.bazaar, 'other extensions kept');
  const offers = extractOffersFromPaymentRequired(signed) as EIP712SignedOffer[];
  assert.equal(offers.length, 1);
  const { signer: address, payload } = await verifyOfferSignatureEIP712(offers[0]!);
  assert.equal(address, signer.address);
  assert.equal(payload.amount, '100000');
  assert.equal(payload.resourceUrl, URL);
  assert.ok(payload.validUntil > Date.now() / 1000 + 250);
  const cheaper = { ...offers[0]!, payload: { ...payload, amount: '1' } };
  assert.notEqual((await verifyOfferSignatureEIP712(cheaper)).signer, signer.address);
});
