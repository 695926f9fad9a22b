import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { EXAMPLE_EINVOICE } from '../../src/einvoice/example.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { nginxInstalled, startNginxProxy } from '../support/nginxProxy.js';
import { startPaidService, startPaymentWorld } from '../support/paidService.js';

/**
 * Buyers reach the service through proxies. nginx's defaults refuse a request header line over
 * 8 KB (large_client_header_buffers 4 8k) and an upstream header block over one page
 * (proxy_buffer_size 4k): the challenge and the signature a client echoes back must fit both.
 */
const installed = nginxInstalled();
let world: Awaited<ReturnType<typeof startPaymentWorld>>;
let service: Awaited<ReturnType<typeof startPaidService>>;
let proxy: Awaited<ReturnType<typeof startNginxProxy>>;
before(async () => {
  if (!installed) return;
  world = await startPaymentWorld();
  service = await startPaidService({ net: world.net, renderer: world.renderer });
  proxy = await startNginxProxy(service.url);
});
after(async () => {
  await proxy?.close();
  await service?.close();
  await world?.close();
});

const headerBlock = (response: Response) => headerLines(response).length;

/** The response's header block as sent: one `name: value\r\n` line per header. */
function headerLines(response: Response): string {
  let block = '';
  response.headers.forEach((value, name) => (block += `${name}: ${value}\r\n`));
  return block;
}

test(
  'the paid flow with @x402/fetch through nginx with its default buffers',
  { skip: installed ? false : 'nginx is not installed (scripts/setup.mjs installs the Debian package nginx)' },
  async () => {
    for (const [path, contentType, atomic, invoice] of [
      ['/v1/invoice.pdf', 'application/pdf', 20000n, EXAMPLE_INVOICE],
      ['/v1/e-invoice/factur-x.pdf', 'application/pdf', 20000n, EXAMPLE_EINVOICE],
    ] as const) {
      // The unpaid answer through the proxy: the 402 and its whole header block.
      const unpaid = await fetch(`${proxy.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(invoice),
        signal: AbortSignal.timeout(10_000),
      });
      assert.equal(unpaid.status, 402, `${path}: ${await unpaid.clone().text()}`);
      const required = decodePaymentRequiredHeader(unpaid.headers.get('PAYMENT-REQUIRED')!);
      assert.equal(required.accepts[0]?.amount, String(atomic));
      const challengeBlock = headerBlock(unpaid);
      assert.ok(challengeBlock <= 4096, `${path}: the 402 header block is ${challengeBlock} bytes`);

      // A real client pays through the proxy; the signature it sends is measured on the way out.
      const buyer = world.net.buyers[5]!;
      const balance = await world.net.balanceOf(buyer.address);
      let signatureBytes = 0;
      const measuring: typeof fetch = async (input, init) => {
        const request = new Request(input, init);
        signatureBytes = Math.max(signatureBytes, (request.headers.get('PAYMENT-SIGNATURE') ?? '').length);
        return fetch(request);
      };
      const client = new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(buyer.privateKey)));
      const paid = await wrapFetchWithPayment(measuring, client)(`${proxy.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(invoice),
        signal: AbortSignal.timeout(60_000),
      });
      const body = Buffer.from(await paid.arrayBuffer());
      assert.equal(paid.status, 200, `${path}: ${body.toString().slice(0, 300)}`);
      assert.match(paid.headers.get('content-type') ?? '', new RegExp(contentType));
      assert.equal(body.subarray(0, 5).toString(), '%PDF-');
      assert.equal(decodePaymentResponseHeader(paid.headers.get('PAYMENT-RESPONSE')!).success, true);
      assert.ok(signatureBytes > 0 && signatureBytes <= 4096, `${path}: PAYMENT-SIGNATURE is ${signatureBytes} bytes`);
      assert.equal(await world.net.balanceOf(buyer.address), balance - atomic, 'charged exactly once');
      console.log(
        `# nginx ${path}: 402 header block ${challengeBlock} B, PAYMENT-SIGNATURE ${signatureBytes} B, paid ${paid.status} ${body.length} B PDF, charged ${atomic} atomic USDC`,
      );
    }
    // The proxy really has the default limits: a 9 KB signature line (what clients echoed when the
    // challenge carried the whole schema) never reaches the service.
    const oversized = await fetch(`${proxy.url}/v1/invoice.pdf`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'PAYMENT-SIGNATURE': 'A'.repeat(9 * 1024) },
      body: JSON.stringify(EXAMPLE_INVOICE),
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(oversized.status, 400);
    assert.match(await oversized.text(), /Request Header Or Cookie Too Large/);
    // nginx logged no refusal (e.g. "upstream sent too big header").
    const errors = await readFile(join(proxy.dir, 'error.log'), 'utf8').catch(() => '');
    assert.doesNotMatch(errors, /too big header/, errors);
  },
);
