import assert from 'node:assert/strict';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { postJson } from './testApp.js';

/**
 * A buyer's steps against a paid service's /v1/invoice.pdf, by hand (the 402, the signature, the
 * paid request), for the e2e files that check each step (paid-invoice*.test.ts). `serviceUrl` is
 * read at each call: the service starts in the file's before hook.
 */
export function invoicePayments(serviceUrl: () => string) {
  const invoiceUrl = () => `${serviceUrl()}/v1/invoice.pdf`;

  async function challenge(url = invoiceUrl()): Promise<PaymentRequired> {
    const response = await postJson(url, EXAMPLE_INVOICE);
    assert.equal(response.status, 402);
    return decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED')!);
  }

  async function sign(privateKey: `0x${string}`, paymentRequired: PaymentRequired): Promise<PaymentPayload> {
    return new x402Client()
      .register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(privateKey)))
      .createPaymentPayload(paymentRequired);
  }

  /** A client without spend controls, to sign what a careless or hostile client would. */
  async function signAnything(privateKey: `0x${string}`, paymentRequired: PaymentRequired): Promise<PaymentPayload> {
    const client = x402Client.fromConfig({
      schemes: [{ network: 'eip155:*', client: new ExactEvmScheme(privateKeyToAccount(privateKey)) }],
      spendControls: false,
    });
    return client.createPaymentPayload(paymentRequired);
  }

  const pay = (header: string, body: unknown = EXAMPLE_INVOICE, url = invoiceUrl()) =>
    postJson(url, body, { 'PAYMENT-SIGNATURE': header });

  return { invoiceUrl, challenge, sign, signAnything, pay };
}
