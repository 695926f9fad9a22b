import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { MAX_BATCH_ITEMS } from '../../src/batch/batchRequest.js';
import { EXAMPLE_EINVOICE } from '../../src/einvoice/example.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { LONG_BASE_URL } from '../support/challengeSizes.js';
import { nginxInstalled, startNginxProxy } from '../support/nginxProxy.js';
import { startPaidService } from '../support/paidService.js';
import { fileWorld } from '../support/sharedWorld.js';

/**
 * Buyers reach the service through proxies. nginx's defaults refuse a request header line over
 * 8 KB (large_client_header_buffers 4 8k) and an upstream header block over one page
 * (proxy_buffer_size 4k): the challenge and the signature a client echoes back must fit both.
 */
const installed = nginxInstalled();
let world: Awaited<ReturnType<typeof fileWorld>>;
let service: Awaited<ReturnType<typeof startPaidService>>;
let proxy: Awaited<ReturnType<typeof startNginxProxy>>;
before(async () => {
  if (!installed) return;
  world = await fileWorld();
  // The widest configuration: signed offers and receipts, a public base URL of 100 characters.
  service = await startPaidService({
    net: world.net,
    renderer: world.renderer,
    env: { RECEIPT_SIGNING_KEY: generatePrivateKey(), PUBLIC_BASE_URL: LONG_BASE_URL },
  });
  proxy = await startNginxProxy(service.url);
});
after(async () => {
  await proxy?.close();
  await service?.close();
  await world?.release();
});

const headerBlock = (response: Response) =>
  Buffer.byteLength(`HTTP/1.1 ${response.status} ${response.statusText}\r\n${headerLines(response)}\r\n`);

const stockClient = (privateKey: `0x${string}`) =>
  new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(privateKey)));

const ITEM_PRICE = 20000n;
const largestBatch = () => ({
  format: 'cii',
  invoices: Array.from({ length: MAX_BATCH_ITEMS }, (_, i) => ({ ...EXAMPLE_EINVOICE, invoice_number: `NGINX-${i}` })),
});

test(
  'every paid route answers its 402 through nginx with its default buffers, signed offers on, a 100-character public URL',
  { skip: installed ? false : 'nginx is not installed (scripts/setup.mjs installs the Debian package nginx)' },
  async () => {
    const manifest = (await (await fetch(`${service.url}/.well-known/x402`)).json()) as { resources: string[] };
    const paths = manifest.resources.map((resource) => new URL(resource).pathname);
    assert.ok(paths.length >= 6, paths.join(' '));
    const requests: [string, unknown][] = [...paths.map((path) => [path, undefined] as [string, unknown])];
    requests.push(['/v1/invoices.zip', largestBatch()], ['/v1/invoice.pdf', EXAMPLE_INVOICE]);
    for (const [path, body] of requests) {
      // A bare POST is the price probe (router.ts); a body is validated first, then challenged.
      const response = await fetch(`${proxy.url}${path}`, {
        method: 'POST',
        ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(30_000),
      });
      assert.equal(response.status, 402, `${path}: ${await response.clone().text()}`);
      const block = headerBlock(response);
      assert.ok(block <= 4096, `${path}: the 402 header block is ${block} bytes`);
      const required = decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED')!);
      assert.equal(required.resource.url, `${LONG_BASE_URL}${path}`);
      console.log(`# nginx 402 ${path}${body === undefined ? ' (probe)' : ''}: header block ${block} B`);
    }
  },
);

test(
  'a stock @x402/fetch client with default spend controls buys the largest batch through nginx',
  { skip: installed ? false : 'nginx is not installed (scripts/setup.mjs installs the Debian package nginx)' },
  async () => {
    const buyer = world.net.buyers[6]!;
    const balance = await world.net.balanceOf(buyer.address);
    const client = stockClient(buyer.privateKey);
    const paid = await wrapFetchWithPayment(fetch, client)(`${proxy.url}/v1/invoices.zip`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(largestBatch()),
      signal: AbortSignal.timeout(120_000),
    });
    const body = Buffer.from(await paid.arrayBuffer());
    assert.equal(paid.status, 200, body.toString().slice(0, 300));
    assert.equal(paid.headers.get('X-Invoice-Count'), String(MAX_BATCH_ITEMS));
    assert.equal(body.subarray(0, 2).toString(), 'PK');
    const price = BigInt(MAX_BATCH_ITEMS) * ITEM_PRICE;
    assert.equal(price, 1_000_000n, 'the largest batch costs 1 USD');
    assert.equal(await world.net.balanceOf(buyer.address), balance - price, 'charged exactly once');
    // The cap is real: the same client refuses one atomic unit more.
    const unpaid = await fetch(`${proxy.url}/v1/invoices.zip`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(largestBatch()),
      signal: AbortSignal.timeout(30_000),
    });
    const required = decodePaymentRequiredHeader(unpaid.headers.get('PAYMENT-REQUIRED')!);
    const dearer = { ...required, accepts: [{ ...required.accepts[0]!, amount: String(price + 1n) }] };
    await assert.rejects(client.createPaymentPayload(dearer), /maxAmountPerPayment|spend|exceed/i);
    console.log(
      `# nginx: stock client bought ${MAX_BATCH_ITEMS} invoices (${body.length} B ZIP) for ${price} atomic USDC`,
    );
  },
);

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
      assert.equal(required.extensions?.['offer-receipt'], undefined, 'the signed offers are in the body');
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
      const client = stockClient(buyer.privateKey);
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
