// The e-invoice routes paid end to end, like /v1/invoice.pdf: a real x402 client signs, the local
// facilitator verifies and settles on the local chain, the real renderer prints the Factur-X PDF.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { x402Client } from '@x402/core/client';
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { eInvoiceXml } from '../../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_EINVOICE, EXAMPLE_PROFILE_REQUESTS } from '../../src/einvoice/example.js';
import { prepareEInvoice, prepareProfiledEInvoice } from '../../src/einvoice/prepareEInvoice.js';
import { postJson } from '../support/testApp.js';
import { startPaidService } from '../support/paidService.js';
import { usePaidService } from '../support/paymentWorld.js';
import { authorizationOf } from '../support/x402Buyer.js';

const world = usePaidService();

async function challenge(url: string, body: unknown = EXAMPLE_EINVOICE): Promise<PaymentRequired> {
  const response = await postJson(url, body);
  assert.equal(response.status, 402);
  return decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED')!);
}

async function buy(buyerIndex: number, path: string, body: unknown = EXAMPLE_EINVOICE) {
  const buyer = world.net.buyers[buyerIndex]!;
  const before = await world.net.balanceOf(buyer.address);
  const client = new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(buyer.privateKey)));
  const response = await wrapFetchWithPayment(fetch, client)(`${world.service.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  return {
    response,
    body: Buffer.from(await response.arrayBuffer()),
    spent: before - (await world.net.balanceOf(buyer.address)),
    buyer,
  };
}

describe('buying e-invoices', () => {
  test('UBL: the challenge asks 10000 atomic USDC; a real client pays and gets the XML and a receipt', async () => {
    const required = await challenge(`${world.service.url}/v1/e-invoice/ubl.xml`);
    assert.equal(required.accepts[0]?.amount, '10000');
    assert.equal(required.resource.mimeType, 'application/xml');
    const { response, body, spent, buyer } = await buy(0, '/v1/e-invoice/ubl.xml');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^application\/xml/);
    assert.ok(body.equals(eInvoiceXml(prepareEInvoice(EXAMPLE_EINVOICE), 'ubl')));
    const receipt = decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE')!);
    assert.equal(receipt.success, true);
    assert.equal(receipt.payer?.toLowerCase(), buyer.address.toLowerCase());
    assert.equal(spent, 10000n);
  });

  test('Factur-X: 20000 atomic USDC for the PDF/A-3 with factur-x.xml inside', { timeout: 90_000 }, async () => {
    const required = await challenge(`${world.service.url}/v1/e-invoice/factur-x.pdf`);
    assert.equal(required.accepts[0]?.amount, '20000');
    const { response, body, spent } = await buy(1, '/v1/e-invoice/factur-x.pdf');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    assert.equal(body.toString('latin1', 0, 8), '%PDF-1.7');
    assert.match(
      body.toString('latin1'),
      /\/F \(factur-x\.xml\) \/UF \(factur-x\.xml\) .*\/AFRelationship \/Alternative/,
    );
    assert.equal(decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE')!).success, true);
    assert.equal(spent, 20000n);
  });
});

describe('buying national e-invoices', () => {
  test(
    'XRechnung as ZUGFeRD XRECHNUNG hybrid: paid like Factur-X, xrechnung.xml inside',
    { timeout: 90_000 },
    async () => {
      const { response, body, spent } = await buy(0, '/v1/e-invoice/factur-x.pdf', EXAMPLE_PROFILE_REQUESTS.xrechnung);
      assert.equal(response.status, 200);
      assert.match(
        body.toString('latin1'),
        /\/F \(xrechnung\.xml\) \/UF \(xrechnung\.xml\) .*\/AFRelationship \/Alternative/,
      );
      assert.match(body.toString('latin1'), /<fx:ConformanceLevel>XRECHNUNG<\/fx:ConformanceLevel>/);
      assert.equal(decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE')!).success, true);
      assert.equal(spent, 20000n);
    },
  );

  test('Peppol UBL: paid, the Peppol XML', async () => {
    const { response, body, spent } = await buy(1, '/v1/e-invoice/ubl.xml', EXAMPLE_PROFILE_REQUESTS.peppol);
    assert.equal(response.status, 200);
    const { prepared, profile } = prepareProfiledEInvoice(EXAMPLE_PROFILE_REQUESTS.peppol, 'ubl');
    assert.ok(body.equals(eInvoiceXml(prepared, 'ubl', profile)));
    assert.equal(spent, 10000n);
  });

  test('a Peppol invoice without electronic addresses is a 400 even with a signed payment: nothing is charged', async () => {
    const peppol = EXAMPLE_PROFILE_REQUESTS.peppol;
    const noAddresses = {
      ...peppol,
      seller: { ...peppol.seller, electronic_address: undefined },
      buyer: { ...peppol.buyer, electronic_address: undefined },
    };
    const buyer = world.net.buyers[2]!;
    const signed = await new x402Client()
      .register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(buyer.privateKey)))
      .createPaymentPayload(await challenge(`${world.service.url}/v1/e-invoice/ubl.xml`, peppol));
    const before = await world.net.balanceOf(buyer.address);
    const response = await postJson(`${world.service.url}/v1/e-invoice/ubl.xml`, noAddresses, {
      'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(signed),
    });
    assert.equal(response.status, 400);
    assert.deepEqual(
      (await response.json()).error.issues.map((issue: { code: string }) => issue.code),
      ['PEPPOL-EN16931-R020', 'PEPPOL-EN16931-R010'],
    );
    assert.equal(await world.net.authorizationState(buyer.address, authorizationOf(signed).nonce), false);
    assert.equal(await world.net.balanceOf(buyer.address), before);
  });
});

describe('never charged', () => {
  test('an invoice EN 16931 forbids is a 400 before any payment logic, even with a payment header; the plain PDF route would take it', async () => {
    const noCountry = { ...EXAMPLE_EINVOICE, seller: { ...EXAMPLE_EINVOICE.seller, country: undefined } };
    const buyer = world.net.buyers[2]!;
    const signed = await new x402Client()
      .register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(buyer.privateKey)))
      .createPaymentPayload(await challenge(`${world.service.url}/v1/e-invoice/factur-x.pdf`));
    const before = await world.net.balanceOf(buyer.address);
    const response = await postJson(`${world.service.url}/v1/e-invoice/factur-x.pdf`, noCountry, {
      'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(signed),
    });
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('PAYMENT-REQUIRED'), null);
    assert.deepEqual(
      (await response.json()).error.issues.map((issue: { code: string }) => issue.code),
      ['BR-09'],
    );
    assert.equal(await world.net.authorizationState(buyer.address, authorizationOf(signed).nonce), false);
    assert.equal(await world.net.balanceOf(buyer.address), before);
    assert.equal(
      (await postJson(`${world.service.url}/v1/invoice.pdf`, noCountry)).status,
      402,
      'the plain PDF route asks for payment: it would print',
    );
  });

  test('a render failure on the Factur-X route settles nothing', { timeout: 60_000 }, async () => {
    // A named fake renderer that always fails; the real one is used by every other test.
    const failingRenderPdf = async () => Promise.reject(new Error('render exploded'));
    const failing = await startPaidService({ net: world.net, renderer: world.renderer, renderPdf: failingRenderPdf });
    try {
      const buyer = world.net.buyers[3]!;
      const signed = await new x402Client()
        .register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(buyer.privateKey)))
        .createPaymentPayload(await challenge(`${failing.url}/v1/e-invoice/factur-x.pdf`));
      const before = await world.net.balanceOf(buyer.address);
      const response = await postJson(`${failing.url}/v1/e-invoice/factur-x.pdf`, EXAMPLE_EINVOICE, {
        'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(signed),
      });
      assert.ok(response.status >= 500, String(response.status));
      assert.equal(response.headers.get('PAYMENT-RESPONSE'), null);
      assert.equal(await world.net.authorizationState(buyer.address, authorizationOf(signed).nonce), false);
      assert.equal(await world.net.balanceOf(buyer.address), before);
    } finally {
      await failing.close();
    }
  });
});
