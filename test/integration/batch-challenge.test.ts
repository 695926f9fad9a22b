// What an unpaid client sees of the batch route and the offer-receipt extension: the 402 for a
// batch, its signed offers, the header sizes, and the discovery documents with and without a key.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import {
  extractOffersFromPaymentRequired,
  verifyOfferSignatureEIP712,
  type EIP712SignedOffer,
} from '@x402/extensions/offer-receipt';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { startChallengeApp } from '../support/challengeApp.js';
import { postJson } from '../support/testApp.js';

const key = generatePrivateKey();
const batchOf = (n: number) => ({
  invoices: Array.from({ length: n }, (_, i) => ({ ...EXAMPLE_INVOICE, invoice_number: `C-${i}` })),
});

describe('with a receipt signing key', () => {
  let app: Awaited<ReturnType<typeof startChallengeApp>>;
  before(async () => {
    app = await startChallengeApp({ RECEIPT_SIGNING_KEY: key });
  });
  after(() => app.close());

  test('the 402 of a batch and of a single PDF carry signed offers for their amounts in the body, the header what a client pays with', async () => {
    for (const [path, body, amount] of [
      ['/v1/invoices.zip', batchOf(50), '1000000'],
      ['/v1/invoice.pdf', EXAMPLE_INVOICE, '20000'],
    ] as const) {
      const response = await postJson(`${app.url}${path}`, body);
      assert.equal(response.status, 402, path);
      const header = response.headers.get('PAYMENT-REQUIRED')!;
      // The header fits a proxy's 4 KB buffer (challenge-budget.test.ts): the offers are not in it.
      const required = decodePaymentRequiredHeader(header);
      assert.equal(required.accepts[0]!.amount, amount, path);
      assert.equal(required.extensions?.['offer-receipt'], undefined, path);
      const whole = (await response.json()).payment_required as typeof required;
      assert.deepEqual(whole.accepts, required.accepts);
      const [offer] = extractOffersFromPaymentRequired(whole) as EIP712SignedOffer[];
      const { signer, payload } = await verifyOfferSignatureEIP712(offer!);
      assert.equal(signer, privateKeyToAddress(key), path);
      assert.equal(payload.amount, amount, path);
      assert.equal(payload.resourceUrl, `https://invoices.example${path}`);
    }
  });

  test('/.well-known/x402 and /openapi.json name the signer', async () => {
    const manifest = await (await fetch(`${app.url}/.well-known/x402`)).json();
    assert.equal(manifest.extensions['offer-receipt'].signer, privateKeyToAddress(key));
    assert.equal(manifest.extensions['offer-receipt'].format, 'eip712');
    const openapi = await (await fetch(`${app.url}/openapi.json`)).json();
    for (const path of ['/v1/invoice.pdf', '/v1/invoices.zip']) {
      assert.equal(
        openapi.paths[path].post['x-payment-info'].protocols[0].x402.extensions['offer-receipt'].signer,
        privateKeyToAddress(key),
        path,
      );
    }
    assert.match(openapi.paths['/v1/invoices.zip'].post.description, /per invoice in the call/);
  });
});

test('without a key (outside local payment mode): no offers, no declaration', async () => {
  const app = await startChallengeApp();
  try {
    const response = await postJson(`${app.url}/v1/invoices.zip`, batchOf(2));
    assert.equal(response.status, 402);
    const required = decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED')!);
    assert.equal(required.accepts[0]!.amount, '40000');
    assert.equal(required.extensions?.['offer-receipt'], undefined);
    assert.equal((await (await fetch(`${app.url}/.well-known/x402`)).json()).extensions, undefined);
  } finally {
    await app.close();
  }
});
