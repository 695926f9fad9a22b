// The local payment network end to end: a real x402 client signs, the local facilitator verifies
// and settles over HTTP, and the chain's balances prove it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { x402Client } from '@x402/core/client';
import { HTTPFacilitatorClient } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { createPublicClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startLocalPaymentNetwork, type LocalPaymentNetwork } from '../../src/payment/local/localPaymentNetwork.js';

const HTTP_TIMEOUT_MS = 10_000;

describe('local payment network', { timeout: 120_000 }, () => {
  let net: LocalPaymentNetwork;

  before(
    async () => {
      net = await startLocalPaymentNetwork({});
    },
    { timeout: 30_000 },
  );

  after(
    async () => {
      await net?.close();
    },
    { timeout: 15_000 },
  );

  function requirements(): PaymentRequirements {
    return {
      scheme: 'exact',
      network: 'eip155:8453',
      amount: '20000',
      asset: net.usdc,
      payTo: net.payTo,
      maxTimeoutSeconds: 300,
      extra: { name: 'USD Coin', version: '2' },
    };
  }

  async function signPayment(privateKey: `0x${string}`): Promise<PaymentPayload> {
    const client = new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(privateKey)));
    return client.createPaymentPayload({
      x402Version: 2,
      resource: { url: 'http://127.0.0.1/v1/invoice.pdf' },
      accepts: [requirements()],
    });
  }

  async function post<T>(
    path: '/verify' | '/settle',
    paymentPayload: PaymentPayload,
  ): Promise<{ status: number; body: T; ms: number }> {
    const started = performance.now();
    const response = await fetch(net.facilitatorUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x402Version: 2, paymentPayload, paymentRequirements: requirements() }),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    const body = (await response.json()) as T;
    return { status: response.status, body, ms: Math.round(performance.now() - started) };
  }

  function nonceOf(payment: PaymentPayload): `0x${string}` {
    const authorization = (payment.payload as { authorization: { nonce: `0x${string}` } }).authorization;
    return authorization.nonce;
  }

  it('listens on loopback and advertises exact on eip155:8453', async () => {
    assert.match(net.rpcUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(net.facilitatorUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${net.facilitatorUrl}/supported`, { signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
    assert.equal(response.status, 200);
    const supported = (await response.json()) as { kinds: unknown[] };
    assert.deepEqual(supported.kinds, [{ x402Version: 2, scheme: 'exact', network: 'eip155:8453' }]);
  });

  it('funds nine buyers with 1000 USDC each and the payee with nothing', async () => {
    assert.equal(net.buyers.length, 9);
    assert.ok(!net.buyers.some((b) => b.address === net.payTo));
    for (const buyer of net.buyers) {
      assert.equal(privateKeyToAccount(buyer.privateKey).address, buyer.address);
      assert.equal(await net.balanceOf(buyer.address), 1_000_000_000n);
    }
    assert.equal(await net.balanceOf(net.payTo), 0n);
  });

  it('verifies and settles a payment: exactly 20000 moves and the nonce is spent', async (t) => {
    const buyer = net.buyers[0]!;
    const payment = await signPayment(buyer.privateKey);
    const [payToBefore, buyerBefore] = [await net.balanceOf(net.payTo), await net.balanceOf(buyer.address)];

    const verify = await post<VerifyResponse>('/verify', payment);
    assert.equal(verify.status, 200);
    assert.equal(verify.body.isValid, true, JSON.stringify(verify.body));
    assert.equal(verify.body.payer, buyer.address);

    const settle = await post<SettleResponse>('/settle', payment);
    assert.equal(settle.status, 200);
    assert.equal(settle.body.success, true, JSON.stringify(settle.body));
    assert.match(settle.body.transaction, /^0x[0-9a-f]{64}$/);
    assert.equal(settle.body.network, 'eip155:8453');
    t.diagnostic(`verify ${verify.ms} ms, settle ${settle.ms} ms`);

    assert.equal(await net.balanceOf(net.payTo), payToBefore + 20_000n);
    assert.equal(await net.balanceOf(buyer.address), buyerBefore - 20_000n);
    assert.equal(await net.authorizationState(buyer.address, nonceOf(payment)), true);

    // Chain time must follow the wall clock: clients sign validBefore = now + maxTimeoutSeconds.
    const chain = createPublicClient({ transport: http(net.rpcUrl, { timeout: HTTP_TIMEOUT_MS }) });
    const receipt = await chain.getTransactionReceipt({ hash: settle.body.transaction as `0x${string}` });
    const block = await chain.getBlock({ blockNumber: receipt.blockNumber });
    assert.ok(Math.abs(Number(block.timestamp) - Date.now() / 1000) < 30, `block time ${block.timestamp}`);
  });

  it('refuses to settle the same authorization twice and moves nothing', async (t) => {
    const buyer = net.buyers[1]!;
    const payment = await signPayment(buyer.privateKey);
    const first = await post<SettleResponse>('/settle', payment);
    assert.equal(first.body.success, true, JSON.stringify(first.body));
    const [payToBefore, buyerBefore] = [await net.balanceOf(net.payTo), await net.balanceOf(buyer.address)];

    const again = await post<SettleResponse>('/settle', payment);
    assert.equal(again.status, 200);
    assert.equal(again.body.success, false);
    assert.equal(again.body.errorReason, 'invalid_exact_evm_nonce_already_used', JSON.stringify(again.body));
    t.diagnostic(`second settle: ${again.body.errorReason} (${again.ms} ms)`);

    const reverify = await post<VerifyResponse>('/verify', payment);
    assert.equal(reverify.body.isValid, false);
    assert.equal(reverify.body.invalidReason, 'invalid_exact_evm_nonce_already_used');

    assert.equal(await net.balanceOf(net.payTo), payToBefore);
    assert.equal(await net.balanceOf(buyer.address), buyerBefore);
  });

  it('settles concurrent payments from several buyers', async () => {
    const buyers = net.buyers.slice(3, 9);
    const payToBefore = await net.balanceOf(net.payTo);
    const payments = await Promise.all(buyers.map((b) => signPayment(b.privateKey)));
    const settled = await Promise.all(payments.map((p) => post<SettleResponse>('/settle', p)));
    for (const s of settled) assert.equal(s.body.success, true, JSON.stringify(s.body));
    assert.equal(new Set(settled.map((s) => s.body.transaction)).size, buyers.length);
    assert.equal(await net.balanceOf(net.payTo), payToBefore + 20_000n * BigInt(buyers.length));
  });

  it('finds a buyer without USDC invalid, naming the reason', async () => {
    const payment = await signPayment(generatePrivateKey());
    const verify = await post<VerifyResponse>('/verify', payment);
    assert.equal(verify.status, 200);
    assert.equal(verify.body.isValid, false);
    // A specific reason needs the Multicall3 stand-in (it carries the facilitator's diagnostics).
    assert.equal(verify.body.invalidReason, 'invalid_exact_evm_insufficient_balance', JSON.stringify(verify.body));
  });

  it('answers in the shapes HTTPFacilitatorClient accepts', async () => {
    const facilitator = new HTTPFacilitatorClient({ url: net.facilitatorUrl, timeoutMs: HTTP_TIMEOUT_MS });
    const supported = await facilitator.getSupported();
    assert.equal(supported.kinds[0]?.network, 'eip155:8453');
    const verdict = await facilitator.verify(await signPayment(net.buyers[2]!.privateKey), requirements());
    assert.equal(verdict.isValid, true);
  });

  it('rejects a malformed request with 400 before touching the chain', async () => {
    const response = await fetch(`${net.facilitatorUrl}/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x402Version: 2, paymentPayload: { nope: true }, paymentRequirements: requirements() }),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    assert.equal(response.status, 400);
  });
});
