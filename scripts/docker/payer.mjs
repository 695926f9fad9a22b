// Paying as a client does: an x402 v2 client with a dev account of the local test chain (test
// USDC, public keys: never real money), and the reading of the service's paid answers.

/**
 * A payer with dev account `index` of the local chain. `sign` answers the PAYMENT-SIGNATURE header
 * for a 402 answer (its headers and parsed body) and the authorization's nonce; the tests keep the
 * header, so that the same payment can be sent again.
 */
export async function devAccountPayer(index) {
  const { tsImport } = await import('tsx/esm/api');
  const { devKey } = await tsImport('../../src/payment/local/devAccounts.ts', import.meta.url);
  const { x402Client, x402HTTPClient } = await import('@x402/core/client');
  const { ExactEvmScheme } = await import('@x402/evm/exact/client');
  const { privateKeyToAccount } = await import('viem/accounts');
  const client = new x402Client().register(
    'eip155:*',
    new ExactEvmScheme(privateKeyToAccount(devKey(index).privateKey)),
  );
  const httpClient = new x402HTTPClient(client);
  return {
    async sign(headers, body) {
      const required = httpClient.getPaymentRequiredResponse((name) => headers.get(name), body);
      const payload = await client.createPaymentPayload(required);
      return {
        signature: httpClient.encodePaymentSignatureHeader(payload),
        nonce: payload.payload.authorization.nonce.toLowerCase(),
      };
    },
  };
}

/** The settlement receipt of a paid answer (its PAYMENT-RESPONSE header), if it has one. */
export function receiptOf(headers) {
  const receipt = headers.get('payment-response');
  return receipt ? JSON.parse(Buffer.from(receipt, 'base64').toString('utf8')) : undefined;
}

export const startsAsPdf = (bytes) => bytes.subarray(0, 5).toString() === '%PDF-';
