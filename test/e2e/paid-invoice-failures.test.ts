// x402 v2 end to end, when something fails: a failed render or an unreachable facilitator never
// charges the buyer (paid-invoice.test.ts has the challenge, the purchase and the refused payments).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { createWalletClient, http, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { startPaidService, USDC } from '../support/paidService.js';
import { invoicePayments } from '../support/invoicePayments.js';
import { usePaidService } from '../support/paymentWorld.js';
import { authorizationOf } from '../support/x402Buyer.js';
import { waitUntil } from '../fixtures/processes.js';
import { startFaultyFacilitator } from '../support/faultyFacilitator.js';

const world = usePaidService();

const { challenge, sign, pay } = invoicePayments(() => world.service.url);

describe('never charged when the work or the facilitator fails', () => {
  test('a render failure is a 502 and the nonce stays unused on chain', async () => {
    // A named fake renderer that always fails; the real renderer is exercised by every other test.
    const failingRenderPdf = async () => Promise.reject(new Error('render exploded'));
    const failing = await startPaidService({ net: world.net, renderer: world.renderer, renderPdf: failingRenderPdf });
    try {
      const buyer = world.net.buyers[5]!;
      const payload = await sign(buyer.privateKey, await challenge(`${failing.url}/v1/invoice.pdf`));
      const before = await world.net.balanceOf(buyer.address);
      const response = await pay(
        encodePaymentSignatureHeader(payload),
        EXAMPLE_INVOICE,
        `${failing.url}/v1/invoice.pdf`,
      );
      assert.ok(response.status >= 500, String(response.status));
      assert.equal(response.headers.get('PAYMENT-RESPONSE'), null);
      assert.equal(await world.net.authorizationState(buyer.address, authorizationOf(payload).nonce), false);
      assert.equal(await world.net.balanceOf(buyer.address), before);
      // Nothing was spent, so the same signature still buys the PDF where rendering works.
      const retry = await pay(encodePaymentSignatureHeader(payload));
      assert.equal(retry.status, 200);
    } finally {
      await failing.close();
    }
  });

  test('facilitator down: 502 and nothing settled', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await startPaidService({
      net: world.net,
      renderer: world.renderer,
      facilitatorUrl: `http://127.0.0.1:${port}`,
    });
    try {
      const buyer = world.net.buyers[6]!;
      const payload = await sign(buyer.privateKey, await challenge(`${down.url}/v1/invoice.pdf`));
      const response = await pay(encodePaymentSignatureHeader(payload), EXAMPLE_INVOICE, `${down.url}/v1/invoice.pdf`);
      assert.equal(response.status, 502);
      assert.equal((await response.json()).error.code, 'facilitator_unavailable');
      // The render ran alongside verify and was thrown away; its page is free again.
      assert.ok(down.renders() <= 1);
      await waitUntil(() => world.renderer.stats().pagesInUse === 0 && world.renderer.hasRoom(), 10_000);
      assert.equal(await world.net.authorizationState(buyer.address, authorizationOf(payload).nonce), false);
    } finally {
      await down.close();
    }
  });

  test('settlement that fails for real (funds gone between verify and settle) is a 402 with a failed receipt and no PDF', async () => {
    // Buyer 8 keeps exactly one payment's worth, then signs two payments at once: both verify
    // (the balance covers each), only one can settle.
    const buyer = world.net.buyers[7]!;
    const wallet = createWalletClient({
      account: privateKeyToAccount(buyer.privateKey),
      transport: http(world.net.rpcUrl),
    });
    const spare = (await world.net.balanceOf(buyer.address)) - 20000n;
    await wallet.writeContract({
      chain: null,
      address: USDC,
      abi: parseAbi(['function transfer(address,uint256) returns (bool)']),
      functionName: 'transfer',
      args: [world.net.buyers[8]!.address, spare],
    });
    for (let i = 0; i < 50 && (await world.net.balanceOf(buyer.address)) !== 20000n; i++)
      await new Promise((r) => setTimeout(r, 100));
    assert.equal(await world.net.balanceOf(buyer.address), 20000n);

    // Both must have verified before either settles: at load 9-11 the second request's verify once
    // came after the first had settled, and was refused as a plain 402 (no receipt). A named proxy
    // in front of the real facilitator holds the settlements until both verifications are answered.
    const proxy = await startFaultyFacilitator(world.net.facilitatorUrl);
    proxy.fault({ after: proxy.answered('verify', 2) }, 'settle');
    const service = await startPaidService({ net: world.net, renderer: world.renderer, facilitatorUrl: proxy.url });
    try {
      const url = `${service.url}/v1/invoice.pdf`;
      const required = await challenge(url);
      const [a, b] = await Promise.all([sign(buyer.privateKey, required), sign(buyer.privateKey, required)]);
      const responses = await Promise.all([
        pay(encodePaymentSignatureHeader(a!), EXAMPLE_INVOICE, url),
        pay(encodePaymentSignatureHeader(b!), { ...EXAMPLE_INVOICE, invoice_number: 'INV-B' }, url),
      ]);
      const statuses = responses.map((r) => r.status).sort();
      assert.deepEqual(statuses, [200, 402]);
      const failed = responses.find((r) => r.status === 402)!;
      const receipt = decodePaymentResponseHeader(failed.headers.get('PAYMENT-RESPONSE')!);
      assert.equal(receipt.success, false);
      assert.notEqual(failed.headers.get('content-type'), 'application/pdf');
      assert.equal(await world.net.balanceOf(buyer.address), 0n);
    } finally {
      await service.close();
      await proxy.close();
    }
  });

  test('settlement that times out is a 504, never a 402', async () => {
    // A named fault-injecting proxy: verify goes to the real facilitator, settle hangs.
    const proxy: Server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (req.url === '/settle') return; // never answers
      // GET /supported (the start-up check) has no body.
      const body = req.method === 'POST' ? { body: Buffer.concat(chunks) } : {};
      const upstream = await fetch(`${world.net.facilitatorUrl}${req.url}`, {
        method: req.method,
        headers: { 'content-type': 'application/json' },
        ...body,
      });
      res
        .writeHead(upstream.status, { 'content-type': 'application/json' })
        .end(Buffer.from(await upstream.arrayBuffer()));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const hanging = await startPaidService({
      net: world.net,
      renderer: world.renderer,
      facilitatorUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      facilitatorTimeoutMs: 1500,
    });
    try {
      const buyer = world.net.buyers[8]!;
      const header = encodePaymentSignatureHeader(
        await sign(buyer.privateKey, await challenge(`${hanging.url}/v1/invoice.pdf`)),
      );
      const response = await pay(header, EXAMPLE_INVOICE, `${hanging.url}/v1/invoice.pdf`);
      assert.equal(response.status, 504);
      assert.equal((await response.json()).error.code, 'settlement_unknown');
      assert.equal(response.headers.get('PAYMENT-REQUIRED'), null);
    } finally {
      await hanging.close();
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});
