// A payer's budget is spent only by a proven payer: PAYMENT-SIGNATUREs that name a victim's address
// as authorization.from, sent from other client addresses, never lock the victim out (HTTP and MCP
// alike). The per-payer bucket is taken only once the 65-byte signature recovers to `from`
// (payment/signerCheck.ts); a smart-account signature (any other length, unprovable here) takes a
// bucket of its own per client address and claimed payer instead. The facilitator of this app is a
// closed loopback port: a purchase that got past the limits answers 502 facilitator_unavailable.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodePaymentSignatureHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { EXAMPLE_EINVOICE } from '../../src/einvoice/example.js';
import { createMemoryBucketStore } from '../../src/http/rateLimit/bucketStore.js';
import { devKey } from '../../src/payment/local/devAccounts.js';
import { startChallengeApp } from '../support/challengeApp.js';
import { postJson } from '../support/testApp.js';
import { signerFor } from '../support/x402Buyer.js';

type App = Awaited<ReturnType<typeof startChallengeApp>>;
let app: App;
let required: PaymentRequired;
before(async () => {
  // The bucket clock stands still: no token comes back while the test runs, however slow the machine.
  app = await startChallengeApp(
    {
      RATE_LIMIT_CLIENT_BURST: '1000',
      RATE_LIMIT_PAYER_BURST: '3',
      RATE_LIMIT_PAYER_PER_SECOND: '1',
      TRUST_PROXY_HOPS: '1',
    },
    { buckets: createMemoryBucketStore(() => 1_000_000) },
  );
  required = decodePaymentRequiredHeader(
    (await postJson(`${app.url}${PATH}`, EXAMPLE_EINVOICE)).headers.get('PAYMENT-REQUIRED')!,
  );
});
after(() => app?.close());

// A paid route whose work needs no renderer (this app has none): the XML is produced, then verify fails.
const PATH = '/v1/e-invoice/ubl.xml';
const victim = devKey(1);
const signedBy = (index: number) => signerFor(devKey(index), required);

/** A payload naming `from` with a fresh nonce and the given signature (nobody's, or someone else's). */
async function forged(from: string, signature: string): Promise<PaymentPayload> {
  const template = decodePaymentSignatureHeader((await signedBy(2)()).header);
  const authorization = {
    ...(template.payload as { authorization: Record<string, string> }).authorization,
    from,
    nonce: `0x${randomBytes(32).toString('hex')}`,
  };
  return { ...template, payload: { signature, authorization } };
}
const garbage65 = () => `0x${randomBytes(65).toString('hex')}`;
/** What an attacker who knows only the victim's address can send: its own valid signature over an authorization naming the victim. */
const othersSignature = async () =>
  decodePaymentSignatureHeader((await signedBy(2)()).header).payload.signature as string;
const smartAccountLike = () => `0x${randomBytes(200).toString('hex')}`;

const pay = (header: string, client: string) =>
  postJson(`${app.url}${PATH}`, EXAMPLE_EINVOICE, { 'PAYMENT-SIGNATURE': header, 'x-forwarded-for': client });
const codeOf = async (response: Response) => ((await response.json()) as { error?: { code: string } }).error?.code;

async function mcpClient(client: string) {
  const mcp = new Client({ name: 'payer-drain-test', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
      requestInit: { headers: { 'x-forwarded-for': client } },
    }),
  );
  return mcp;
}
type ToolResult = { isError?: boolean; structuredContent?: { error?: { code: string } | string } };
const callPaid = async (mcp: Client, payment: PaymentPayload) =>
  (await mcp.callTool({
    name: 'v1_e_invoice_ubl_xml',
    arguments: EXAMPLE_EINVOICE as unknown as Record<string, unknown>,
    _meta: { 'x402/payment': payment },
  })) as ToolResult;

describe('forged payments naming a victim never spend its budget', () => {
  test('HTTP and MCP forgeries from six addresses, then the victim buys: not rate_limited', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) {
      const signature = i % 2 ? garbage65() : await othersSignature();
      const response = await pay(
        encodePaymentSignatureHeader(await forged(victim.address, signature)),
        `198.51.100.${i % 6}`,
      );
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    assert.deepEqual([...new Set(statuses)], [402], `forgeries are challenged, never limited: ${statuses.join(' ')}`);

    const mcp = await mcpClient('198.51.100.7');
    try {
      for (let i = 0; i < 8; i++) {
        const result = await callPaid(mcp, await forged(victim.address, i % 2 ? garbage65() : await othersSignature()));
        assert.equal(result.isError, true);
        assert.equal(
          (result.structuredContent as { error?: unknown }).error,
          'invalid_signature',
          JSON.stringify(result.structuredContent).slice(0, 300),
        );
      }
    } finally {
      await mcp.close();
    }

    // The victim's own signed purchase passes the limits and reaches the (closed) facilitator.
    const own = await pay((await signerFor(victim, required)()).header, '192.0.2.10');
    assert.equal(own.status, 502);
    assert.equal(await codeOf(own), 'facilitator_unavailable');
  });

  test('smart-account (unprovable) signatures naming a payer are limited per client address, apart from the payer own bucket', async () => {
    const payer = devKey(3);
    // One attacker address: its own bucket for this claimed payer runs dry after the burst.
    const attacker: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await pay(
        encodePaymentSignatureHeader(await forged(payer.address, smartAccountLike())),
        '203.0.113.1',
      );
      attacker.push(response.status);
      await response.arrayBuffer();
    }
    assert.deepEqual(attacker, [502, 502, 502, 429]);
    // Over MCP from that address too: the same bucket.
    const mcp = await mcpClient('203.0.113.1');
    try {
      const result = await callPaid(mcp, await forged(payer.address, smartAccountLike()));
      assert.equal((result.structuredContent as { error: { code: string } }).error.code, 'rate_limited');
    } finally {
      await mcp.close();
    }
    // Another address naming the same payer has its own; the payer's proven purchases are untouched.
    assert.equal(
      (await pay(encodePaymentSignatureHeader(await forged(payer.address, smartAccountLike())), '203.0.113.2')).status,
      502,
    );
    assert.equal(
      await codeOf(await pay((await signerFor(payer, required)()).header, '192.0.2.11')),
      'facilitator_unavailable',
    );
  });

  test('a proven payer is limited as one across addresses and transports', async () => {
    const payer = devKey(4);
    const sign = signerFor(payer, required);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await pay((await sign()).header, `192.0.2.${20 + i}`);
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    assert.deepEqual(statuses, [502, 502, 502]);
    const limited = await pay((await sign()).header, '192.0.2.30');
    assert.equal(limited.status, 429);
    assert.match(((await limited.json()) as { error: { message: string } }).error.message, /this payer/);
    assert.match(limited.headers.get('ratelimit-policy') ?? '', /"payer";q=3;w=3/);
    assert.match(limited.headers.get('ratelimit') ?? '', /"payer";r=0;t=\d+/);
    const mcp = await mcpClient('192.0.2.31');
    try {
      const result = await callPaid(mcp, decodePaymentSignatureHeader((await sign()).header));
      assert.equal((result.structuredContent as { error: { code: string } }).error.code, 'rate_limited');
    } finally {
      await mcp.close();
    }
  });
});
