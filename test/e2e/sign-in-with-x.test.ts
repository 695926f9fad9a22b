// Sign-in-with-x end to end: a stock x402 client pays on the local chain, then the same wallet
// fetches the same document again with @x402/extensions' own wrapFetchWithSIWx, unchanged, and
// pays nothing; everything else (another wallet, another body, a replay, a message for another
// origin or chain, too old or from the future) gets the ordinary 402, a malformed header a 400.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import {
  createSIWxMessage,
  createSIWxPayload,
  encodeSIWxHeader,
  SIGN_IN_WITH_X,
  wrapFetchWithSIWx,
  type CompleteSIWxInfo,
  type SIWxExtension,
} from '@x402/extensions/sign-in-with-x';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { postJson } from '../support/testApp.js';
import { usePaidService } from '../support/paymentWorld.js';

const world = usePaidService({ ownOrigin: true });

const url = () => `${world.service.url}/v1/invoice.pdf`;
const buyer = () => privateKeyToAccount(world.net.buyers[2]!.privateKey);
const stranger = () => privateKeyToAccount(world.net.buyers[3]!.privateKey);
const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const balance = () => world.net.balanceOf(buyer().address);

function payingFetch() {
  const client = new x402Client().register('eip155:8453', new ExactEvmScheme(buyer()));
  return wrapFetchWithPayment(fetch, client);
}

async function challenge(body: unknown = EXAMPLE_INVOICE): Promise<PaymentRequired> {
  const response = await postJson(url(), body);
  assert.equal(response.status, 402);
  return decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED')!);
}

const signInOffer = (required: PaymentRequired) => required.extensions?.[SIGN_IN_WITH_X] as SIWxExtension;

/** A sign-in signed by `account` over the 402's offer with some fields changed (what a hostile or broken client sends). */
async function signInHeader(
  account: ReturnType<typeof buyer>,
  change: Partial<CompleteSIWxInfo> = {},
): Promise<string> {
  const offer = signInOffer(await challenge());
  const info: CompleteSIWxInfo = { ...offer.info, chainId: 'eip155:8453', type: 'eip191', ...change };
  const signature = await account.signMessage({ message: createSIWxMessage(info, account.address) });
  return encodeSIWxHeader({ ...info, address: account.address, signature });
}

const signedInStatus = async (header: string) =>
  (await fetch(url(), post(EXAMPLE_INVOICE, { 'SIGN-IN-WITH-X': header }))).status;

describe('sign-in-with-x over HTTP', () => {
  before(
    async () => {
      const paid = await payingFetch()(url(), post(EXAMPLE_INVOICE));
      assert.equal(paid.status, 200);
      assert.ok(paid.headers.get('PAYMENT-RESPONSE'));
      await paid.arrayBuffer();
    },
    { timeout: 60_000 },
  );

  test('every 402 offers sign-in bound to the configured origin, on the offered chain', async () => {
    const required = await challenge();
    const offer = signInOffer(required);
    assert.equal(offer.info.domain, new URL(world.service.url).host);
    assert.equal(offer.info.uri, world.service.url);
    assert.deepEqual(offer.supportedChains, [{ chainId: 'eip155:8453', type: 'eip191' }]);
    assert.match(offer.info.nonce, /^[0-9a-f]{16}$/);
    // The header carries it without its JSON Schema, the body whole.
    assert.equal('schema' in offer, false);
    assert.notEqual(signInOffer(await challenge()).info.nonce, offer.info.nonce);
  });

  test('the paying wallet fetches the same PDF again with wrapFetchWithSIWx, and pays nothing', async () => {
    const before = await balance();
    const rendersBefore = world.service.renders();
    const response = await wrapFetchWithSIWx(fetch, buyer())(url(), post(EXAMPLE_INVOICE));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    assert.equal(response.headers.get('PAYMENT-RESPONSE'), null);
    assert.equal(response.headers.get('cache-control'), 'private');
    const pdf = Buffer.from(await response.arrayBuffer());
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    assert.equal(await balance(), before);
    assert.equal(world.service.renders(), rendersBefore + 1);
  });

  test('a stock client with both wrappers pays once, then re-downloads free', async () => {
    const body = { ...EXAMPLE_INVOICE, invoice_number: 'SIWX-BOTH-1' };
    const client = new x402Client().register('eip155:8453', new ExactEvmScheme(buyer()));
    const both = wrapFetchWithPayment(wrapFetchWithSIWx(fetch, buyer()), client);
    const start = await balance();
    const first = await both(url(), post(body));
    assert.equal(first.status, 200);
    assert.ok(first.headers.get('PAYMENT-RESPONSE'));
    await first.arrayBuffer();
    const afterPaying = await balance();
    assert.equal(start - afterPaying, 20_000n);
    const second = await both(url(), post(body));
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('PAYMENT-RESPONSE'), null);
    await second.arrayBuffer();
    assert.equal(await balance(), afterPaying);
  });

  test('another wallet, or another body, gets the ordinary 402', async () => {
    const other = await wrapFetchWithSIWx(fetch, stranger())(url(), post(EXAMPLE_INVOICE));
    assert.equal(other.status, 402);
    assert.ok(other.headers.get('PAYMENT-REQUIRED'));
    const otherBody = await wrapFetchWithSIWx(fetch, buyer())(
      url(),
      post({ ...EXAMPLE_INVOICE, invoice_number: 'NEVER-PAID-1' }),
    );
    assert.equal(otherBody.status, 402);
  });

  test('a replayed sign-in is refused', async () => {
    const header = await signInHeader(buyer());
    assert.equal(await signedInStatus(header), 200);
    assert.equal(await signedInStatus(header), 402);
  });

  test('messages for another origin, another chain, too old, from the future or not by the address are refused', async () => {
    const now = Date.now();
    const cases: [reason: string, Promise<string>][] = [
      [
        'invalid_siwx_domain_mismatch',
        signInHeader(buyer(), { domain: 'evil.example', uri: 'https://evil.example/v1/invoice.pdf' }),
      ],
      ['invalid_siwx_uri_mismatch', signInHeader(buyer(), { uri: `${world.service.url}/v1/invoice.pdf` })],
      ['invalid_siwx_unsupported_chain', signInHeader(buyer(), { chainId: 'eip155:1' })],
      [
        'invalid_siwx_issued_at_too_old',
        signInHeader(buyer(), { issuedAt: new Date(now - 10 * 60_000).toISOString() }),
      ],
      [
        'invalid_siwx_issued_at_in_future',
        signInHeader(buyer(), { issuedAt: new Date(now + 10 * 60_000).toISOString() }),
      ],
      ['invalid_siwx_expired', signInHeader(buyer(), { expirationTime: new Date(now - 1000).toISOString() })],
    ];
    for (const [reason, header] of cases) {
      const response = await fetch(url(), post(EXAMPLE_INVOICE, { 'SIGN-IN-WITH-X': await header }));
      assert.equal(response.status, 402, reason);
      assert.ok(response.headers.get('PAYMENT-REQUIRED'), reason);
      assert.match((await response.json()).error.message, new RegExp(`sign-in refused: ${reason}`));
    }
    // Signed by the stranger but claiming the buyer's address.
    const forged = JSON.parse(Buffer.from(await signInHeader(stranger()), 'base64').toString());
    const claimed = encodeSIWxHeader({ ...forged, address: buyer().address });
    const response = await fetch(url(), post(EXAMPLE_INVOICE, { 'SIGN-IN-WITH-X': claimed }));
    assert.equal(response.status, 402);
    assert.match((await response.json()).error.message, /sign-in refused: invalid_siwx_signature/);
  });

  test('a malformed header is a 400', async () => {
    for (const header of ['not base64!', Buffer.from('{"domain":1}').toString('base64')]) {
      const response = await fetch(url(), post(EXAMPLE_INVOICE, { 'SIGN-IN-WITH-X': header }));
      assert.equal(response.status, 400);
      assert.equal((await response.json()).error.code, 'invalid_sign_in_header');
    }
  });
});

describe('sign-in-with-x over MCP', () => {
  test('the paying wallet gets the PDF again through _meta["sign-in-with-x"]', async () => {
    const client = new Client({ name: 'siwx-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${world.service.url}/mcp`)));
    try {
      const body = { ...EXAMPLE_INVOICE, invoice_number: 'SIWX-MCP-1' };
      const unpaid = await client.callTool({ name: 'v1_invoice_pdf', arguments: body });
      const required = unpaid.structuredContent as unknown as PaymentRequired;
      const payer = new x402Client().register('eip155:*', new ExactEvmScheme(buyer()));
      const payment = await payer.createPaymentPayload(required);
      const paid = await client.callTool({
        name: 'v1_invoice_pdf',
        arguments: body,
        _meta: { 'x402/payment': payment },
      });
      assert.notEqual(paid.isError, true);

      const again = await client.callTool({ name: 'v1_invoice_pdf', arguments: body });
      const offer = signInOffer(again.structuredContent as unknown as PaymentRequired);
      const proof = await createSIWxPayload(
        { ...offer.info, chainId: 'eip155:8453', type: 'eip191' },
        buyer(),
        offer.info.uri,
      );
      const before = await balance();
      const free = await client.callTool({
        name: 'v1_invoice_pdf',
        arguments: body,
        _meta: { [SIGN_IN_WITH_X]: proof },
      });
      assert.notEqual(free.isError, true);
      assert.equal(await balance(), before);
      const replay = await client.callTool({
        name: 'v1_invoice_pdf',
        arguments: body,
        _meta: { [SIGN_IN_WITH_X]: proof },
      });
      assert.equal(replay.isError, true);
    } finally {
      await client.close();
    }
  });
});
