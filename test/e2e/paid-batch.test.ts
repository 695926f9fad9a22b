// POST /v1/invoices.zip end to end: a real @x402/fetch client pays one authorization for a batch
// on the local chain, the real facilitator settles it, the real renderer prints every invoice.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { x402Client } from '@x402/core/client';
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import {
  extractOffersFromPaymentRequired,
  extractReceiptFromResponse,
  verifyOfferSignatureEIP712,
  verifyReceiptSignatureEIP712,
  type EIP712SignedOffer,
  type EIP712SignedReceipt,
} from '@x402/extensions/offer-receipt';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { authorizationOf } from '../support/x402Buyer.js';
import { startPaidService } from '../support/paidService.js';
import { usePaymentWorld } from '../support/paymentWorld.js';
import { postJson } from '../support/testApp.js';

/** The response's offer-receipt receipt, verified with the SDK: its payload once it recovers to the published signer. */
async function verifiedReceipt(response: Response) {
  const receipt = extractReceiptFromResponse(response) as EIP712SignedReceipt | undefined;
  assert.ok(receipt, 'PAYMENT-RESPONSE carries a receipt');
  const { signer, payload } = await verifyReceiptSignatureEIP712(receipt);
  assert.equal(signer, world.signerAddress);
  return payload;
}

// Signed receipts on, with a key of the test's own (a public dev key is refused outside local mode).
const world = usePaymentWorld(async ({ net, renderer }, stopLater) => {
  const service = stopLater(
    await startPaidService({ net, renderer, env: { RECEIPT_SIGNING_KEY: generatePrivateKey() } }),
  );
  const x402 = await (await fetch(`${service.url}/.well-known/x402`)).json();
  return { service, signerAddress: x402.extensions['offer-receipt'].signer as string };
});

const ITEM_PRICE = 20000n; // v1_invoices_zip's default per-invoice price, atomic USDC
const batchOf = (n: number, prefix = 'B') => ({
  format: 'pdf',
  invoices: Array.from({ length: n }, (_, i) => ({ ...EXAMPLE_INVOICE, invoice_number: `${prefix}-2026/${i + 1}` })),
});
const batchUrl = (base = world.service.url) => `${base}/v1/invoices.zip`;

async function challengeFor(body: unknown, url = batchUrl()): Promise<PaymentRequired> {
  const response = await postJson(url, body);
  assert.equal(response.status, 402);
  return decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED')!);
}

const signerOf = (index: number) => {
  const buyer = world.net.buyers[index]!;
  const client = new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(buyer.privateKey)));
  return { buyer, client, sign: (required: PaymentRequired) => client.createPaymentPayload(required) };
};

function unzip(zip: Buffer): Record<string, Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'batch-'));
  try {
    writeFileSync(join(dir, 'b.zip'), zip);
    execFileSync('unzip', ['-q', join(dir, 'b.zip'), '-d', join(dir, 'out')]);
    return Object.fromEntries(
      readdirSync(join(dir, 'out')).map((name) => [name, readFileSync(join(dir, 'out', name))]),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the batch price', () => {
  test('the 402 asks for the per-invoice price once per invoice; a bare probe is quoted one invoice', async () => {
    assert.equal((await challengeFor(batchOf(5))).accepts[0]!.amount, String(5n * ITEM_PRICE));
    assert.equal((await challengeFor(batchOf(1))).accepts[0]!.amount, String(ITEM_PRICE));
    const probe = await fetch(batchUrl(), { method: 'POST' });
    assert.equal(probe.status, 402);
    assert.equal(
      decodePaymentRequiredHeader(probe.headers.get('PAYMENT-REQUIRED')!).accepts[0]!.amount,
      String(ITEM_PRICE),
    );
  });

  test('a payment signed for 5 invoices does not buy 6', async () => {
    const { buyer, sign } = signerOf(3);
    const payload = await sign(await challengeFor(batchOf(5)));
    const response = await postJson(batchUrl(), batchOf(6), {
      'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payload),
    });
    assert.equal(response.status, 402);
    assert.equal(
      decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED')!).error,
      'invalid_exact_evm_payload_authorization_value',
    );
    assert.equal(await world.net.authorizationState(buyer.address, authorizationOf(payload).nonce), false);
  });
});

describe('bad batches are never charged', () => {
  test('an invalid item, a duplicate number, 0 or 51 items, an unknown format: 400 with item indices, nonce unused', async () => {
    const { buyer, sign } = signerOf(4);
    const payload = await sign(await challengeFor(batchOf(2)));
    const header = encodePaymentSignatureHeader(payload);
    const before = await world.net.balanceOf(buyer.address);
    const broken = batchOf(2);
    (broken.invoices[1] as Record<string, unknown>).line_items = [];
    const duplicate = batchOf(2);
    duplicate.invoices[1]!.invoice_number = duplicate.invoices[0]!.invoice_number;
    const cases: [string, unknown, string][] = [
      ['invalid item', broken, 'invoices[1].line_items'],
      ['duplicate', duplicate, 'invoices[1].invoice_number'],
      ['empty', { invoices: [] }, 'invoices'],
      ['51', batchOf(51), 'invoices'],
      ['format', { ...batchOf(2), format: 'docx' }, 'format'],
    ];
    for (const [name, body, path] of cases) {
      const response = await postJson(batchUrl(), body, { 'PAYMENT-SIGNATURE': header });
      assert.equal(response.status, 400, name);
      assert.equal(response.headers.get('PAYMENT-REQUIRED'), null, name);
      const { error } = await response.json();
      assert.ok(
        error.issues.some((issue: { path: string }) => issue.path === path),
        `${name}: ${JSON.stringify(error.issues)}`,
      );
    }
    assert.equal(await world.net.authorizationState(buyer.address, authorizationOf(payload).nonce), false);
    assert.equal(await world.net.balanceOf(buyer.address), before);
  });

  test('a batch over the body limit is a 413, nonce unused', async () => {
    const small = await startPaidService({
      net: world.net,
      renderer: world.renderer,
      env: { BODY_LIMIT_BYTES: '8192' },
    });
    try {
      const { buyer, sign } = signerOf(4);
      const payload = await sign(await challengeFor(batchOf(2), batchUrl(small.url)));
      const response = await postJson(batchUrl(small.url), batchOf(20), {
        'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payload),
      });
      assert.equal(response.status, 413);
      assert.equal((await response.json()).error.code, 'payload_too_large');
      assert.equal(await world.net.authorizationState(buyer.address, authorizationOf(payload).nonce), false);
    } finally {
      await small.close();
    }
  });

  test('an item that fails to render: 502 naming the item, nothing settled', async () => {
    // A named fake renderPdf that fails for one invoice number; the real renderer prints the others.
    const failing = await startPaidService({
      net: world.net,
      renderer: world.renderer,
      renderPdf: (prepared, options) =>
        prepared.invoice.invoice_number === 'F-2026/3'
          ? Promise.reject(new Error('render exploded'))
          : world.renderer.renderPdf(prepared, options),
    });
    try {
      const { buyer, sign } = signerOf(5);
      const body = batchOf(4, 'F');
      const payload = await sign(await challengeFor(body, batchUrl(failing.url)));
      const before = await world.net.balanceOf(buyer.address);
      const response = await postJson(batchUrl(failing.url), body, {
        'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payload),
      });
      assert.equal(response.status, 502);
      assert.equal(response.headers.get('PAYMENT-RESPONSE'), null);
      const { error } = await response.json();
      assert.equal(error.code, 'render_failed');
      assert.match(error.message, /invoices\[2\] \(invoice F-2026\/3\)/);
      assert.deepEqual(
        error.issues.map((issue: { path: string }) => issue.path),
        ['invoices[2]'],
      );
      assert.equal(await world.net.authorizationState(buyer.address, authorizationOf(payload).nonce), false);
      assert.equal(await world.net.balanceOf(buyer.address), before);
    } finally {
      await failing.close();
    }
  });
});

describe('buying a batch', () => {
  test('@x402/fetch pays once for 5 invoices: 5 × the item price on chain, a ZIP of 5 PDFs and a manifest', async () => {
    const { buyer, client } = signerOf(0);
    const buyerBefore = await world.net.balanceOf(buyer.address);
    const payToBefore = await world.net.balanceOf(world.net.payTo);
    const rendersBefore = world.service.renders();
    const body = batchOf(5);
    const response = await wrapFetchWithPayment(fetch, client)(batchUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    });
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(response.headers.get('content-type'), 'application/zip');
    assert.match(response.headers.get('content-disposition') ?? '', /invoices\.zip/);
    const zip = Buffer.from(await response.arrayBuffer());
    const settlement = decodePaymentResponseHeader(response.headers.get('PAYMENT-RESPONSE')!);
    assert.equal(settlement.success, true);
    assert.equal(settlement.payer?.toLowerCase(), buyer.address.toLowerCase());
    assert.equal(await world.net.balanceOf(buyer.address), buyerBefore - 5n * ITEM_PRICE);
    assert.equal(await world.net.balanceOf(world.net.payTo), payToBefore + 5n * ITEM_PRICE);
    assert.equal(world.service.renders() - rendersBefore, 5);
    const receipt = await verifiedReceipt(response);
    assert.equal(receipt.resourceUrl, 'http://127.0.0.1/v1/invoices.zip');
    assert.equal(receipt.payer.toLowerCase(), buyer.address.toLowerCase());
    assert.equal(receipt.transaction, settlement.transaction);
    assert.equal(receipt.network, 'eip155:8453');
    assert.equal(
      response.headers.get('content-digest'),
      `sha-256=:${createHash('sha256').update(zip).digest('base64')}:`,
    );

    const files = unzip(zip);
    const names = body.invoices.map((invoice) => `invoice-${invoice.invoice_number.replace('/', '_')}.pdf`);
    assert.deepEqual(Object.keys(files).sort(), [...names, 'manifest.json'].sort());
    const manifest = JSON.parse(files['manifest.json']!.toString('utf8'));
    assert.equal(manifest.format, 'pdf');
    assert.equal(manifest.count, 5);
    for (const [index, entry] of manifest.files.entries()) {
      assert.equal(entry.file, names[index]);
      assert.equal(entry.invoice_number, body.invoices[index]!.invoice_number);
      assert.equal(entry.sha256, createHash('sha256').update(files[entry.file]!).digest('hex'));
      assert.equal(entry.bytes, files[entry.file]!.length);
      assert.equal(files[entry.file]!.subarray(0, 5).toString(), '%PDF-');
      assert.ok(entry.pages >= 1);
      assert.equal(entry.currency, 'USD');
      assert.match(entry.total, /^\d+\.\d{2}$/);
    }
  });

  test('the same batch bought again gives the same bytes; a re-send of the signature replays without a charge', async () => {
    const { buyer, sign } = signerOf(1);
    const body = batchOf(2, 'D');
    const required = await challengeFor(body);
    const first = encodePaymentSignatureHeader(await sign(required));
    const a = await postJson(batchUrl(), body, { 'PAYMENT-SIGNATURE': first });
    assert.equal(a.status, 200);
    const zipA = Buffer.from(await a.arrayBuffer());
    const b = await postJson(batchUrl(), body, {
      'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(await sign(required)),
    });
    assert.equal(b.status, 200);
    assert.deepEqual(Buffer.from(await b.arrayBuffer()), zipA, 'deterministic ZIP');
    const balance = await world.net.balanceOf(buyer.address);
    const replay = await postJson(batchUrl(), body, { 'PAYMENT-SIGNATURE': first });
    assert.equal(replay.status, 200);
    assert.deepEqual(Buffer.from(await replay.arrayBuffer()), zipA);
    assert.equal(replay.headers.get('PAYMENT-RESPONSE'), a.headers.get('PAYMENT-RESPONSE'), 'the same receipt');
    assert.equal(replay.headers.get('content-digest'), a.headers.get('content-digest'));
    assert.deepEqual(await verifiedReceipt(replay), await verifiedReceipt(a));
    assert.equal(await world.net.balanceOf(buyer.address), balance);
  });
});

describe('signed offers and receipts', () => {
  test('the 402 carries a signed offer for the batch amount; discovery names the signer', async () => {
    // The whole challenge, with the signed offers, is the 402's body; its header leaves them out.
    const response = await postJson(batchUrl(), batchOf(3));
    assert.equal(response.status, 402);
    assert.equal(
      decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED')!).extensions?.['offer-receipt'],
      undefined,
    );
    const required = (await response.json()).payment_required as PaymentRequired;
    const offers = extractOffersFromPaymentRequired(required) as EIP712SignedOffer[];
    assert.equal(offers.length, 1);
    const { signer, payload } = await verifyOfferSignatureEIP712(offers[0]!);
    assert.equal(signer, world.signerAddress);
    assert.equal(payload.amount, String(3n * ITEM_PRICE));
    assert.equal(payload.resourceUrl, 'http://127.0.0.1/v1/invoices.zip');
    const openapi = await (await fetch(`${world.service.url}/openapi.json`)).json();
    const x402 = openapi.paths['/v1/invoices.zip'].post['x-payment-info'].protocols[0].x402;
    assert.equal(x402.extensions['offer-receipt'].signer, world.signerAddress);
    assert.ok(required.accepts[0]!.amount && (await fetch(`${world.service.url}/.well-known/x402`)).ok);
    assert.ok(response402Size(required) <= 8192, `PAYMENT-REQUIRED is ${response402Size(required)} bytes`);
  });

  test('a single paid PDF carries a receipt too, for its own URL', async () => {
    const { buyer, client } = signerOf(2);
    const response = await wrapFetchWithPayment(fetch, client)(`${world.service.url}/v1/invoice.pdf`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(EXAMPLE_INVOICE),
      signal: AbortSignal.timeout(60_000),
    });
    assert.equal(response.status, 200);
    const receipt = await verifiedReceipt(response);
    assert.equal(receipt.resourceUrl, 'http://127.0.0.1/v1/invoice.pdf');
    assert.equal(receipt.payer.toLowerCase(), buyer.address.toLowerCase());
  });
});

const response402Size = (required: PaymentRequired) => Buffer.from(JSON.stringify(required)).toString('base64').length;

/** The parts of a paid file result the test reads (toolResults.ts). */
interface PaidToolResult {
  isError?: boolean;
  content: { resource: { mimeType: string; blob: string } }[];
  structuredContent: { sha256: string };
  _meta: { 'x402/payment-response': { extensions: { 'offer-receipt': { info: { receipt: unknown } } } } };
}

describe('the batch as an MCP tool', () => {
  test('v1_invoices_zip: unpaid → PaymentRequired for n invoices; paid → the ZIP, its sha256 and a verifying receipt', async () => {
    const mcp = new Client({ name: 'batch-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${world.service.url}/mcp`)));
    try {
      const { tools } = await mcp.listTools();
      const tool = tools.find((entry) => entry.name === 'v1_invoices_zip');
      assert.ok(tool, 'the batch is a tool');
      assert.match(tool.description ?? '', /per invoice/);
      const { buyer, sign } = signerOf(6);
      const before = await world.net.balanceOf(buyer.address);
      const args = batchOf(3, 'M') as unknown as Record<string, unknown>;
      const unpaid = (await mcp.callTool({ name: 'v1_invoices_zip', arguments: args })) as {
        isError?: boolean;
        structuredContent: unknown;
      };
      assert.equal(unpaid.isError, true);
      const required = unpaid.structuredContent as PaymentRequired;
      assert.equal(required.accepts[0]!.amount, String(3n * ITEM_PRICE));
      const paid = (await mcp.callTool({
        name: 'v1_invoices_zip',
        arguments: args,
        _meta: { 'x402/payment': await sign(required) },
      })) as unknown as PaidToolResult;
      assert.equal(paid.isError, undefined, JSON.stringify(paid).slice(0, 300));
      assert.equal(paid.content[0]!.resource.mimeType, 'application/zip');
      const zip = Buffer.from(paid.content[0]!.resource.blob, 'base64');
      assert.equal(paid.structuredContent.sha256, createHash('sha256').update(zip).digest('hex'));
      assert.equal(Object.keys(unzip(zip)).length, 4);
      const receipt = paid._meta['x402/payment-response'].extensions['offer-receipt'].info
        .receipt as EIP712SignedReceipt;
      const { signer, payload } = await verifyReceiptSignatureEIP712(receipt);
      assert.equal(signer, world.signerAddress);
      assert.equal(payload.resourceUrl, 'http://127.0.0.1/v1/invoices.zip');
      assert.equal(payload.payer.toLowerCase(), buyer.address.toLowerCase());
      assert.equal(await world.net.balanceOf(buyer.address), before - 3n * ITEM_PRICE);
    } finally {
      await mcp.close();
    }
  });
});
