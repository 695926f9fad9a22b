// POST /v1/e-invoice/render.pdf paid end to end, like the other PDF routes: a real x402 client
// signs, the local facilitator verifies and settles on the local chain, the real renderer prints.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { x402Client } from '@x402/core/client';
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { eInvoiceXml } from '../../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_EINVOICE } from '../../src/einvoice/example.js';
import { prepareEInvoice } from '../../src/einvoice/prepareEInvoice.js';
import { normalizeText, pdfPages } from '../fixtures/pdfTools.js';
import { usePaidService } from '../support/paymentWorld.js';
import { authorizationOf } from '../support/x402Buyer.js';

// Our own UBL: no ../shared needed.
const xml = eInvoiceXml(prepareEInvoice(EXAMPLE_EINVOICE), 'ubl');

const world = usePaidService();

const post = (body: Uint8Array | string, headers: Record<string, string> = {}) =>
  fetch(`${world.service.url}/v1/e-invoice/render.pdf?locale=fr-FR`, {
    method: 'POST',
    headers: { 'content-type': 'application/xml', ...headers },
    body: body as BodyInit,
    signal: AbortSignal.timeout(60_000),
  });

describe('render.pdf, paid', () => {
  test(
    'the challenge asks 20000 atomic USDC; a real client pays with the XML as the body and gets the PDF',
    { timeout: 90_000 },
    async () => {
      const challenge = await post(xml);
      assert.equal(challenge.status, 402);
      const required = decodePaymentRequiredHeader(challenge.headers.get('PAYMENT-REQUIRED')!);
      assert.equal(required.accepts[0]?.amount, '20000');
      assert.equal(required.resource.mimeType, 'application/pdf');
      const buyer = world.net.buyers[0]!;
      const balance = await world.net.balanceOf(buyer.address);
      const client = new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(buyer.privateKey)));
      const response = await wrapFetchWithPayment(fetch, client)(
        `${world.service.url}/v1/e-invoice/render.pdf?locale=fr-FR`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/xml' },
          body: xml as BodyInit,
          signal: AbortSignal.timeout(60_000),
        },
      );
      const pdf = Buffer.from(await response.arrayBuffer());
      assert.equal(response.status, 200, pdf.toString('utf8').slice(0, 300));
      assert.equal(response.headers.get('content-type'), 'application/pdf');
      const text = normalizeText(pdfPages(pdf).join('\n'));
      assert.match(text, /la facture électronique est le XML/);
      assert.match(text, new RegExp(EXAMPLE_EINVOICE.invoice_number));
      assert.equal(decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE')!).success, true);
      assert.equal(balance - (await world.net.balanceOf(buyer.address)), 20000n);
    },
  );

  test('a hostile document is a 400 before any payment logic, even with a payment header: nothing settles', async () => {
    const buyer = world.net.buyers[1]!;
    const required = decodePaymentRequiredHeader((await post(xml)).headers.get('PAYMENT-REQUIRED')!);
    const signed = await new x402Client()
      .register('eip155:*', new ExactEvmScheme(privateKeyToAccount(buyer.privateKey)))
      .createPaymentPayload(required);
    const balance = await world.net.balanceOf(buyer.address);
    const response = await post(
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
      { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(signed) },
    );
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'xml_doctype_refused');
    assert.equal(response.headers.get('PAYMENT-RESPONSE'), null);
    assert.equal(await world.net.authorizationState(buyer.address, authorizationOf(signed).nonce), false);
    assert.equal(await world.net.balanceOf(buyer.address), balance);
  });
});
