import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { EXAMPLE_EINVOICE } from '../../src/einvoice/example.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { createMemoryBucketStore } from '../../src/http/rateLimit/bucketStore.js';
import { startFaultyFacilitator, type FaultyFacilitator } from '../support/faultyFacilitator.js';
import { authorizationOf } from '../support/x402Buyer.js';
import { startPaidService } from '../support/paidService.js';
import { usePaymentWorld } from '../support/paymentWorld.js';
import { postJson } from '../support/testApp.js';
import type { JsonAnswer } from '../support/json.js';

/**
 * The MCP server at /mcp driven by the SDK's own client, paid tools over the x402 MCP transport
 * with a real signer on the local chain: the same processor and store as the HTTP gate.
 */
const world = usePaymentWorld(async ({ net, renderer }, stopLater) => {
  const service = stopLater(await startPaidService({ net, renderer }));
  const client = stopLater(new Client({ name: 'mcp-paid-test', version: '1.0.0' }));
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`)));
  return { service, client };
});

type Result = Awaited<ReturnType<Client['callTool']>> & {
  structuredContent?: JsonAnswer;
  _meta?: JsonAnswer;
  content: JsonAnswer[];
};
const call = async (name: string, args: unknown, payment?: PaymentPayload) =>
  (await world.client.callTool({
    name,
    arguments: args as Record<string, unknown>,
    ...(payment ? { _meta: { 'x402/payment': payment } } : {}),
  })) as Result;

function signerOf(buyerIndex: number) {
  const buyer = world.net.buyers[buyerIndex]!;
  const signer = new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(buyer.privateKey)));
  return { buyer, sign: (required: PaymentRequired) => signer.createPaymentPayload(required) };
}

describe('tools', () => {
  test("one tool per operation, with the route table's valibot schemas (summarised, the invoice written out once)", async () => {
    const { tools } = await world.client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    for (const name of [
      'v1_invoice_pdf',
      'v1_invoice_validate',
      'v1_schema',
      'v1_e_invoice_factur_x_pdf',
      'v1_e_invoice_cii_xml',
      'v1_e_invoice_ubl_xml',
      'v1_e_invoice_validate',
      'v1_late_fee',
      'v1_payment_terms',
      'v1_reminder_draft',
      'v1_invoice_from_timesheet',
    ]) {
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    }
    assert.ok(!names.includes('healthz') && !names.includes('openapi'));
    const pdf = tools.find((tool) => tool.name === 'v1_invoice_pdf')!;
    assert.match(pdf.inputSchema.description as string, /Same as v1_invoice_validate's arguments/);
    const validate = tools.find((tool) => tool.name === 'v1_invoice_validate')!;
    const properties = validate.inputSchema.properties as Record<string, { type?: string }>;
    assert.equal(properties.line_items?.type, 'array');
    const outputs = (pdf.outputSchema as unknown as { anyOf: { required: string[] }[] }).anyOf.map(
      (schema) => schema.required,
    );
    assert.deepEqual(outputs, [['fileName', 'contentType', 'bytes', 'uri'], ['error'], ['x402Version']]);
    assert.match(pdf.description ?? '', /0\.02 USD/);
  });

  test('a free tool answers typed JSON', async () => {
    const result = await call('v1_invoice_validate', EXAMPLE_INVOICE);
    assert.equal(result.isError, undefined);
    assert.equal(result.structuredContent.total.decimal, '10803.74');
  });
});

describe('paid tools (x402 MCP transport)', () => {
  test('unpaid call → PaymentRequired; paid retry → the PDF as an embedded resource and the receipt; charged once', async () => {
    const { buyer, sign } = signerOf(6);
    const before = await world.net.balanceOf(buyer.address);
    const unpaid = await call('v1_invoice_pdf', EXAMPLE_INVOICE);
    assert.equal(unpaid.isError, true);
    const required = unpaid.structuredContent as PaymentRequired;
    assert.equal(required.x402Version, 2);
    assert.equal(required.accepts[0]?.amount, '20000');
    assert.equal(JSON.parse(unpaid.content[0].text)['x402/error'].code, 402);

    const payment = await sign(required);
    const paid = await call('v1_invoice_pdf', EXAMPLE_INVOICE, payment);
    assert.equal(paid.isError, undefined, JSON.stringify(paid).slice(0, 500));
    const resource = paid.content[0];
    assert.equal(resource.type, 'resource');
    assert.equal(resource.resource.mimeType, 'application/pdf');
    assert.equal(paid.structuredContent.fileName, 'invoice.pdf');
    assert.equal(resource.resource.uri, 'invoice://v1_invoice_pdf/invoice.pdf');
    const pdf = Buffer.from(resource.resource.blob, 'base64');
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    assert.equal(paid.structuredContent.bytes, pdf.length);
    assert.ok(paid.structuredContent.pages >= 1);
    const receipt = paid._meta['x402/payment-response'];
    assert.equal(receipt.success, true);
    assert.match(receipt.transaction, /^0x[0-9a-f]{64}$/);
    assert.equal(await world.net.balanceOf(buyer.address), before - 20000n);
    console.log(
      `# MCP paid call: ${JSON.stringify({ isError: paid.isError ?? false, content: [{ type: resource.type, resource: { uri: resource.resource.uri, mimeType: resource.resource.mimeType, blob: `<${resource.resource.blob.length} base64 chars>` } }], structuredContent: paid.structuredContent, _meta: paid._meta })}`,
    );

    // The same payment again: the same PDF, no second charge.
    const again = await call('v1_invoice_pdf', EXAMPLE_INVOICE, payment);
    assert.equal(Buffer.from(again.content[0].resource.blob, 'base64').equals(pdf), true);
    assert.deepEqual(again.structuredContent, paid.structuredContent, 'the stored page count, not a recount');
    assert.equal(again._meta['x402/payment-response'].transaction, receipt.transaction);
    assert.equal(await world.net.balanceOf(buyer.address), before - 20000n);
    // ... and over HTTP too: one store, one processor.
    const http = await fetch(`${world.service.url}/v1/invoice.pdf`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'PAYMENT-SIGNATURE': Buffer.from(JSON.stringify(payment)).toString('base64'),
      },
      body: JSON.stringify(EXAMPLE_INVOICE),
    });
    assert.equal(http.status, 200);
    assert.equal(http.headers.get('x-page-count'), String(paid.structuredContent.pages));
    assert.equal(http.headers.get('content-disposition'), 'inline; filename="invoice.pdf"');
    assert.equal(Buffer.from(await http.arrayBuffer()).equals(pdf), true);
    assert.equal(await world.net.balanceOf(buyer.address), before - 20000n);
  });

  test('invalid input is refused before payment: the authorization stays unused', async () => {
    const { buyer, sign } = signerOf(7);
    const required = (await call('v1_invoice_pdf', EXAMPLE_INVOICE)).structuredContent as PaymentRequired;
    const payment = await sign(required);
    const before = await world.net.balanceOf(buyer.address);
    const refused = await call('v1_invoice_pdf', { ...EXAMPLE_INVOICE, line_items: [] }, payment);
    assert.equal(refused.isError, true);
    assert.equal(refused.structuredContent.error.code, 'validation_failed');
    assert.equal(await world.net.authorizationState(buyer.address, authorizationOf(payment).nonce), false);
    assert.equal(await world.net.balanceOf(buyer.address), before);
  });

  test('a failed render is an error result, never settled: the authorization stays unused', async () => {
    // A named fake renderer that always fails; the real one serves every other test.
    const failing = await startPaidService({
      net: world.net,
      renderer: world.renderer,
      renderPdf: async () => Promise.reject(new Error('render exploded')),
    });
    const failingClient = new Client({ name: 'mcp-paid-test', version: '1.0.0' });
    try {
      await failingClient.connect(new StreamableHTTPClientTransport(new URL(`${failing.url}/mcp`)));
      const { buyer, sign } = signerOf(4);
      const required = (
        await failingClient.callTool({
          name: 'v1_invoice_pdf',
          arguments: EXAMPLE_INVOICE as unknown as Record<string, unknown>,
        })
      ).structuredContent as PaymentRequired;
      const payment = await sign(required);
      const before = await world.net.balanceOf(buyer.address);
      const result = (await failingClient.callTool({
        name: 'v1_invoice_pdf',
        arguments: EXAMPLE_INVOICE as unknown as Record<string, unknown>,
        _meta: { 'x402/payment': payment },
      })) as Result;
      assert.equal(result.isError, true);
      // The fake throws a plain Error, which HTTP answers 500 internal_error: the same code here.
      assert.equal(result.structuredContent.error.code, 'internal_error');
      assert.equal(result._meta?.['x402/payment-response'], undefined);
      assert.equal(await world.net.authorizationState(buyer.address, authorizationOf(payment).nonce), false);
      assert.equal(await world.net.balanceOf(buyer.address), before);
    } finally {
      await failingClient.close();
      await failing.close();
    }
  });

  test('an e-invoice tool returns its XML as a text resource', async () => {
    const { buyer, sign } = signerOf(8);
    const required = (await call('v1_e_invoice_ubl_xml', EXAMPLE_EINVOICE)).structuredContent as PaymentRequired;
    const before = await world.net.balanceOf(buyer.address);
    const paid = await call('v1_e_invoice_ubl_xml', EXAMPLE_EINVOICE, await sign(required));
    assert.equal(paid.isError, undefined, JSON.stringify(paid).slice(0, 500));
    assert.match(paid.content[0].resource.text, /<Invoice/);
    assert.equal(await world.net.balanceOf(buyer.address), before - BigInt(required.accepts[0]!.amount));
  });
});

describe('the payer limit covers paid tool calls (shared with HTTP)', () => {
  // The real facilitator behind a pass-through proxy that counts its calls, and the real memory
  // bucket store on a clock that stands still: no token comes back while the test runs, however
  // long a settlement takes (RATE_LIMIT_PAYER_PER_SECOND can't go below 1).
  let proxy: FaultyFacilitator;
  let limited: Awaited<ReturnType<typeof startPaidService>>;
  let limitedClient: Client;
  before(async () => {
    proxy = await startFaultyFacilitator(world.net.facilitatorUrl);
    limited = await startPaidService({
      net: world.net,
      renderer: world.renderer,
      facilitatorUrl: proxy.url,
      env: { RATE_LIMIT_PAYER_BURST: '2', RATE_LIMIT_PAYER_PER_SECOND: '1' },
      buckets: createMemoryBucketStore(() => 1_000_000),
    });
    limitedClient = new Client({ name: 'mcp-paid-test', version: '1.0.0' });
    await limitedClient.connect(new StreamableHTTPClientTransport(new URL(`${limited.url}/mcp`)));
  });
  after(async () => {
    await limitedClient?.close();
    await limited?.close();
    await proxy?.close();
  });

  const callLimited = async (payment?: PaymentPayload, args: unknown = EXAMPLE_EINVOICE) =>
    (await limitedClient.callTool({
      name: 'v1_e_invoice_ubl_xml',
      arguments: args as Record<string, unknown>,
      ...(payment ? { _meta: { 'x402/payment': payment } } : {}),
    })) as Result;
  const httpPay = (payment: PaymentPayload, body: unknown = EXAMPLE_EINVOICE) =>
    postJson(`${limited.url}/v1/e-invoice/ubl.xml`, body, {
      'PAYMENT-SIGNATURE': Buffer.from(JSON.stringify(payment)).toString('base64'),
    });

  test('burst 2: two paid tool calls settle, the third is rate_limited before the facilitator hears of it; HTTP then counts the same bucket', async () => {
    const { buyer, sign } = signerOf(1);
    const required = (await callLimited()).structuredContent as PaymentRequired;
    const payments = [await sign(required), await sign(required), await sign(required), await sign(required)];
    const before = await world.net.balanceOf(buyer.address);
    const verifiesBefore = proxy.calls('verify');
    for (const payment of payments.slice(0, 2)) {
      const paid = await callLimited(payment);
      assert.equal(paid.isError, undefined, JSON.stringify(paid).slice(0, 500));
      assert.equal(paid._meta['x402/payment-response'].success, true);
    }
    assert.equal(proxy.calls('verify') - verifiesBefore, 2);

    const refused = await callLimited(payments[2]);
    assert.equal(refused.isError, true);
    assert.equal(refused.structuredContent.error.code, 'rate_limited');
    assert.match(refused.structuredContent.error.message, /this payer/);
    assert.equal(refused.structuredContent.error.retry_after_seconds, 1);
    assert.deepEqual(JSON.parse(refused.content[0].text), refused.structuredContent);
    assert.equal(refused._meta?.['x402/payment-response'], undefined);
    assert.equal(proxy.calls('verify') - verifiesBefore, 2, 'no /verify for the refused call');
    assert.equal(await world.net.authorizationState(buyer.address, authorizationOf(payments[2]!).nonce), false);
    assert.equal(await world.net.balanceOf(buyer.address), before - 2n * BigInt(required.accepts[0]!.amount));

    // The same payer over HTTP: the bucket the tool calls emptied.
    const http = await httpPay(payments[3]!);
    assert.equal(http.status, 429);
    assert.equal(((await http.json()) as { error: { code: string } }).error.code, 'rate_limited');
    assert.equal(http.headers.get('retry-after'), '1');
    assert.match(http.headers.get('ratelimit') ?? '', /"payer";r=0;t=\d+/);
    assert.equal(proxy.calls('verify') - verifiesBefore, 2);
  });

  test('HTTP requests empty the bucket first: the paid tool call is then rate_limited; free tools and unpaid calls are not counted', async () => {
    const { buyer, sign } = signerOf(2);
    const required = (await callLimited()).structuredContent as PaymentRequired;
    const [first, second, third] = [await sign(required), await sign(required), await sign(required)];
    // A refused body (400) spends no token: the payment is never looked at. Paid requests do.
    for (const payment of [first!, second!])
      assert.equal((await httpPay(payment, { ...EXAMPLE_EINVOICE, invoice_number: '' })).status, 400);
    for (const payment of [first!, second!]) assert.equal((await httpPay(payment)).status, 200);
    const verifiesBefore = proxy.calls('verify');
    const refused = await callLimited(third);
    assert.equal(refused.structuredContent.error.code, 'rate_limited');
    assert.equal(proxy.calls('verify'), verifiesBefore);
    assert.equal(await world.net.authorizationState(buyer.address, authorizationOf(third!).nonce), false);
    // Invalid input is refused before the payer limit (and before payment), a free tool never counts.
    assert.equal(
      (await callLimited(third, { ...EXAMPLE_EINVOICE, invoice_number: '' })).structuredContent.error.code,
      'validation_failed',
    );
    assert.equal(
      (
        await limitedClient.callTool({
          name: 'v1_invoice_validate',
          arguments: EXAMPLE_INVOICE as unknown as Record<string, unknown>,
        })
      ).isError,
      undefined,
    );
  });
});
