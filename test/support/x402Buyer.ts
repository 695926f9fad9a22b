// A real x402 v2 buyer for the tests: fetch the 402 challenge, sign fresh EIP-3009 authorizations.
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import type { DevKey } from '../../src/payment/local/devAccounts.js';
import { postJson } from './testApp.js';

export interface Signed {
  header: string;
  from: `0x${string}`;
  nonce: `0x${string}`;
}

export const authorizationOf = (payload: PaymentPayload) =>
  (payload.payload as { authorization: { from: `0x${string}`; nonce: `0x${string}` } }).authorization;

/** The 402 challenge of the paid route (the same for every body: the offer doesn't depend on it). */
export async function challengeOf(serviceUrl: string): Promise<PaymentRequired> {
  const response = await postJson(`${serviceUrl}/v1/invoice.pdf`, EXAMPLE_INVOICE);
  if (response.status !== 402) throw new Error(`expected a 402 challenge, got ${response.status}`);
  return decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED')!);
}

/** A real x402 client for one buyer: every call signs a fresh authorization (a new nonce). */
export function signerFor(buyer: DevKey, required: PaymentRequired): () => Promise<Signed> {
  const client = new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(buyer.privateKey)));
  return async () => {
    const payload = await client.createPaymentPayload(required);
    const { from, nonce } = authorizationOf(payload);
    return { header: encodePaymentSignatureHeader(payload), from, nonce };
  };
}
