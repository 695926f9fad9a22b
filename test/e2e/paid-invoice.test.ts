// x402 v2 end to end: a real client signs EIP-3009 authorizations, the real local facilitator
// verifies and settles them on a real local chain, and the real renderer prints the PDF.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { x402Client } from '@x402/core/client';
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import { PaymentRequiredV2Schema } from '@x402/core/schemas';
import type { PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { postJson } from '../support/testApp.js';
import { USDC } from '../support/paidService.js';
import { invoicePayments } from '../support/invoicePayments.js';
import { usePaidService } from '../support/paymentWorld.js';
import { authorizationOf } from '../support/x402Buyer.js';

const world = usePaidService();

const { invoiceUrl, challenge, sign, signAnything, pay } = invoicePayments(() => world.service.url);

describe('the 402 challenge', () => {
  test('decodes with @x402/core and carries the exact offer', async () => {
    const response = await postJson(invoiceUrl(), EXAMPLE_INVOICE);
    assert.equal(response.status, 402);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const body = await response.json();
    assert.equal(body.error.code, 'payment_required');
    const required = decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED')!);
    assert.equal(PaymentRequiredV2Schema.safeParse(required).success, true);
    assert.equal(required.x402Version, 2);
    assert.equal(required.error, 'Payment required');
    assert.equal(required.resource.url, 'http://127.0.0.1/v1/invoice.pdf');
    assert.equal(required.resource.mimeType, 'application/pdf');
    assert.deepEqual(required.accepts, [
      {
        scheme: 'exact',
        network: 'eip155:8453',
        amount: '20000',
        asset: USDC,
        payTo: world.net.payTo,
        maxTimeoutSeconds: 300,
        extra: { name: 'USD Coin', version: '2' },
      },
    ]);
    type Bazaar = {
      info: { input: { method: string; bodyType: string; body: unknown } };
      schema: { properties: { input: { properties: { body: Record<string, unknown> } } } };
    };
    // The header's bazaar is compact (compactChallenge.ts): no example body, the schema points on.
    const compact = required.extensions?.bazaar as Bazaar;
    assert.equal(compact.info.input.method, 'POST');
    assert.deepEqual(compact.info.input.body, {});
    assert.match(String(compact.schema.properties.input.properties.body.description), /openapi\.json#v1_invoice_pdf/);
    // The body's payment_required is the whole challenge: the same offer, the full declaration.
    const whole = body.payment_required as typeof required;
    assert.deepEqual(whole.accepts, required.accepts);
    const bazaar = whole.extensions?.bazaar as Bazaar;
    assert.equal(bazaar.info.input.method, 'POST');
    assert.equal(bazaar.info.input.bodyType, 'json');
    // The example, cut to its required fields and first line item (compactSchema.ts).
    assert.deepEqual(bazaar.info.input.body, {
      seller: EXAMPLE_INVOICE.seller,
      buyer: EXAMPLE_INVOICE.buyer,
      invoice_number: EXAMPLE_INVOICE.invoice_number,
      issue_date: EXAMPLE_INVOICE.issue_date,
      line_items: EXAMPLE_INVOICE.line_items.slice(0, 1),
    });
    // The challenge stays small enough for clients and proxies (Node's client refuses header
    // blocks over 16 KiB, and clients echo the challenge into PAYMENT-SIGNATURE): the body schema
    // inside it names the required fields and points to the OpenAPI document for the rest.
    assert.ok(
      response.headers.get('PAYMENT-REQUIRED')!.length <= 4096,
      `PAYMENT-REQUIRED is ${response.headers.get('PAYMENT-REQUIRED')!.length} bytes`,
    );
    const schema = bazaar.schema.properties.input.properties.body;
    assert.deepEqual(schema.required, ['seller', 'buyer', 'invoice_number', 'issue_date', 'line_items']);
    assert.match(String(schema.description), /openapi\.json/);
  });

  test('an invalid body is a 400 before any payment logic, even with a payment header', async () => {
    const buyer = world.net.buyers[1]!;
    const payload = await sign(buyer.privateKey, await challenge());
    const before = await world.net.balanceOf(buyer.address);
    const response = await pay(encodePaymentSignatureHeader(payload), { ...EXAMPLE_INVOICE, line_items: [] });
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('PAYMENT-REQUIRED'), null);
    const { nonce } = authorizationOf(payload);
    assert.equal(await world.net.authorizationState(buyer.address, nonce), false);
    assert.equal(await world.net.balanceOf(buyer.address), before);
  });
});

describe('buying a PDF', () => {
  test('a real @x402/fetch client pays 20000 atomic USDC and gets the PDF and a receipt', async () => {
    const buyer = world.net.buyers[0]!;
    const buyerBefore = await world.net.balanceOf(buyer.address);
    const payToBefore = await world.net.balanceOf(world.net.payTo);
    const client = new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(buyer.privateKey)));
    const payingFetch = wrapFetchWithPayment(fetch, client);
    const response = await payingFetch(invoiceUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(EXAMPLE_INVOICE),
      signal: AbortSignal.timeout(60_000),
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    assert.equal(response.headers.get('cache-control'), 'private');
    const pdf = Buffer.from(await response.arrayBuffer());
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    const receipt = decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE')!);
    assert.equal(receipt.success, true);
    assert.match(receipt.transaction, /^0x[0-9a-f]{64}$/);
    assert.equal(receipt.network, 'eip155:8453');
    assert.equal(receipt.payer?.toLowerCase(), buyer.address.toLowerCase());
    assert.equal(await world.net.balanceOf(buyer.address), buyerBefore - 20000n);
    assert.equal(await world.net.balanceOf(world.net.payTo), payToBefore + 20000n);
  });

  test('the nonce is used on chain after settlement, and a re-send returns the same result without a second charge', async () => {
    const buyer = world.net.buyers[2]!;
    const payload = await sign(buyer.privateKey, await challenge());
    const header = encodePaymentSignatureHeader(payload);
    const first = await pay(header);
    assert.equal(first.status, 200);
    const firstPdf = Buffer.from(await first.arrayBuffer());
    const { nonce } = authorizationOf(payload);
    assert.equal(await world.net.authorizationState(buyer.address, nonce), true);
    const balance = await world.net.balanceOf(buyer.address);
    const rendersBefore = world.service.renders();

    const again = await pay(header);
    assert.equal(again.status, 200);
    assert.deepEqual(Buffer.from(await again.arrayBuffer()), firstPdf);
    assert.equal(again.headers.get('PAYMENT-RESPONSE'), first.headers.get('PAYMENT-RESPONSE'));
    // The replay answers what the first answer said: its type, file name and page count too.
    for (const name of ['content-type', 'content-disposition', 'x-page-count', 'content-length']) {
      assert.ok(first.headers.get(name), `the first answer has ${name}`);
      assert.equal(again.headers.get(name), first.headers.get(name), name);
    }
    assert.equal(world.service.renders(), rendersBefore, 'no second render');
    assert.equal(await world.net.balanceOf(buyer.address), balance, 'no second transfer');

    const otherBody = await pay(header, { ...EXAMPLE_INVOICE, invoice_number: 'OTHER-1' });
    assert.equal(otherBody.status, 409);
    assert.equal((await otherBody.json()).error.code, 'payment_reused');
  });

  test('the same signature sent 10 times at once: one render, one transfer, no 5xx', async () => {
    const buyer = world.net.buyers[3]!;
    const header = encodePaymentSignatureHeader(await sign(buyer.privateKey, await challenge()));
    const balance = await world.net.balanceOf(buyer.address);
    const payToBefore = await world.net.balanceOf(world.net.payTo);
    const rendersBefore = world.service.renders();
    const responses = await Promise.all(Array.from({ length: 10 }, () => pay(header)));
    const statuses = responses.map((response) => response.status);
    assert.ok(
      statuses.every((status) => status === 200 || status === 409),
      statuses.join(','),
    );
    const bodies = await Promise.all(
      responses.filter((r) => r.status === 200).map(async (r) => Buffer.from(await r.arrayBuffer())),
    );
    assert.ok(bodies.length >= 1);
    for (const body of bodies) assert.deepEqual(body, bodies[0]);
    assert.equal(world.service.renders() - rendersBefore, 1);
    assert.equal(await world.net.balanceOf(buyer.address), balance - 20000n);
    assert.equal(await world.net.balanceOf(world.net.payTo), payToBefore + 20000n);
  });
});

describe('payments that are refused', () => {
  test('tampered accepted fields, wrong network and an expired authorization get a 402 with the reason', async () => {
    const buyer = world.net.buyers[4]!;
    const required = await challenge();
    const offer = required.accepts[0]!;
    // The challenge's `error` is the reason code only; the JSON body says it for people.
    const cases: [string, PaymentRequired['accepts'][number], string, RegExp][] = [
      ['amount', { ...offer, amount: '1' }, 'invalid_exact_evm_payload_authorization_value', /amount/],
      ['payTo', { ...offer, payTo: buyer.address }, 'invalid_exact_evm_payload_recipient_mismatch', /payTo/],
      ['network', { ...offer, network: 'eip155:84532' }, 'invalid_network', /network/],
      ['maxTimeoutSeconds', { ...offer, maxTimeoutSeconds: 60 }, 'invalid_payment_requirements', /maxTimeoutSeconds/],
    ];
    for (const [name, tampered, reason, message] of cases) {
      const payload = await signAnything(buyer.privateKey, { ...required, accepts: [tampered] });
      const response = await pay(encodePaymentSignatureHeader(payload));
      assert.equal(response.status, 402, name);
      assert.equal(decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED')!).error, reason, name);
      assert.match((await response.json()).error.message, message, name);
    }
    // Sign honestly, then claim a cheaper price in the unsigned `accepted` copy.
    const honest = await sign(buyer.privateKey, required);
    const lying = { ...honest, accepted: { ...honest.accepted, amount: '1' } };
    assert.equal((await pay(encodePaymentSignatureHeader(lying))).status, 402);
    // An echoed extension must be the advertised one, unchanged (the reference's extension_echo_mismatch).
    assert.ok(honest.extensions?.bazaar, 'the client echoes the bazaar extension');
    const edited = {
      ...honest,
      extensions: { bazaar: { info: { input: { type: 'http', method: 'POST', bodyType: 'json', body: {} } } } },
    };
    const echoed = await pay(encodePaymentSignatureHeader(edited));
    assert.equal(echoed.status, 402);
    assert.equal(decodePaymentRequiredHeader(echoed.headers.get('PAYMENT-REQUIRED')!).error, 'extension_echo_mismatch');
    // The honest payload, extensions echoed as received, still pays.
    assert.equal((await pay(encodePaymentSignatureHeader(honest))).status, 200);
    // Expired: signed with validBefore 1 s ahead, less than the 6 s a settlement needs. (Editing
    // validBefore after signing would be a forgery: 402 invalid_signature, signerCheck.test.ts.)
    const expired = await sign(buyer.privateKey, { ...required, accepts: [{ ...offer, maxTimeoutSeconds: 1 }] });
    const expiredResponse = await pay(encodePaymentSignatureHeader({ ...expired, accepted: offer }));
    assert.equal(expiredResponse.status, 402);
    assert.equal(
      decodePaymentRequiredHeader(expiredResponse.headers.get('PAYMENT-REQUIRED')!).error,
      'invalid_exact_evm_payload_authorization_valid_before',
    );
    assert.match((await expiredResponse.json()).error.message, /expired/);
    assert.equal((await world.net.balanceOf(world.net.payTo)) >= 0n, true);
  });

  test('a buyer without funds is refused by the facilitator with a 402', async () => {
    const poor = generatePrivateKey();
    const payload = await sign(poor, await challenge());
    const response = await pay(encodePaymentSignatureHeader(payload));
    assert.equal(response.status, 402);
    // Only the facilitator's reason code: its long message (contract arguments) stays in the body.
    assert.equal(
      decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED')!).error,
      'invalid_exact_evm_insufficient_balance',
    );
    assert.match((await response.json()).error.message, /insufficient_balance/);
  });

  test('malformed, non-base64 and oversized headers are 400/431', async () => {
    const notBase64 = await pay('%%%not base64%%%');
    assert.equal(notBase64.status, 400);
    assert.equal((await notBase64.json()).error.code, 'invalid_payment_header');
    assert.equal((await pay(Buffer.from('not json').toString('base64'))).status, 400);
    assert.equal((await pay(Buffer.from(JSON.stringify({ x402Version: 1 })).toString('base64'))).status, 400);
    const oversized = await pay('A'.repeat(20_000));
    assert.equal(oversized.status, 431);
  });
});
