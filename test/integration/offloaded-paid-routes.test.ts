// Every operation, free and paid, on instances with payments (the real processor; its facilitator
// a closed port: nothing here gets past the challenge): the same bytes parsed inline
// (COMPUTE_THREADS=0) and on the pool, for valid bodies (the 402 challenge), every kind of refusal,
// price probes, and over MCP. The free operations alone, with more cases: offloaded-routes.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { eInvoiceXml } from '../../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_EINVOICE } from '../../src/einvoice/example.js';
import { prepareEInvoice } from '../../src/einvoice/prepareEInvoice.js';
import { operationList } from '../../src/operations/operationList.js';
import { answer, connectMcp, documentCases, json, withoutFreshSignIn, type Case } from '../support/sameAnswers.js';
import { startChallengeApp } from '../support/challengeApp.js';

describe('every operation, with payments', () => {
  let inlinePaid: Awaited<ReturnType<typeof startChallengeApp>>;
  let pooledPaid: Awaited<ReturnType<typeof startChallengeApp>>;
  before(async () => {
    const env = { RATE_LIMIT_CLIENT_BURST: '0', BODY_LIMIT_BYTES: '800000', PRICES: 'v1_payment_terms=0.01' };
    inlinePaid = await startChallengeApp({ ...env, COMPUTE_THREADS: '0' });
    pooledPaid = await startChallengeApp({ ...env, COMPUTE_THREADS: '2' });
  });
  after(async () => {
    await inlinePaid?.close();
    await pooledPaid?.close();
  });

  const operations = operationList();
  const jsonOperations = operations.filter((operation) => operation.request);
  const everyOperationCases: Case[] = jsonOperations.flatMap((operation) => {
    const example = operation.request!.example as Record<string, unknown>;
    const { path, method } = operation;
    return [
      { name: `${operation.operationId} example`, path, method, body: json(example) },
      {
        name: `${operation.operationId} every field wrong`,
        path,
        method,
        body: json({ ...example, currency: 'XXX', line_items: 'none', amount: 'a', extra: 1 }),
      },
      { name: `${operation.operationId} an array`, path, method, body: '[1]' },
      { name: `${operation.operationId} empty`, path, method, body: '' },
      { name: `${operation.operationId} truncated`, path, method, body: '{"seller": {' },
      { name: `${operation.operationId} __proto__`, path, method, body: '{"a": {"__proto__": {"polluted": true}}}' },
      {
        name: `${operation.operationId} text/plain`,
        path,
        method,
        body: json(example),
        headers: { 'content-type': 'text/plain' },
      },
      { name: `${operation.operationId} over the limit`, path, method, body: `{"notes": "${'x'.repeat(800_001)}"}` },
      {
        name: `${operation.operationId} corrupt gzip`,
        path,
        method,
        body: gzipSync(json(example)).subarray(0, 20),
        headers: { 'content-encoding': 'gzip' },
      },
      { name: `${operation.operationId} bare POST`, path, method, body: '', headers: { 'content-type': '' } },
      {
        name: `${operation.operationId} malformed payment`,
        path,
        method,
        body: json(example),
        headers: { 'PAYMENT-SIGNATURE': 'not base64!' },
      },
      {
        name: `${operation.operationId} payment of another shape`,
        path,
        method,
        body: json(example),
        headers: { 'PAYMENT-SIGNATURE': Buffer.from('{"x402Version":2}').toString('base64') },
      },
    ];
  });
  // The document rows also take the document itself: a valid one is challenged (or answered, free), a hostile one refused before any payment.
  everyOperationCases.push(
    ...jsonOperations
      // The e-invoice documents (PUT /v1/fonts's font files are tested in fonts-http.test.ts).
      .filter((operation) => operation.request!.document?.mediaTypes.includes('application/xml'))
      .flatMap((operation) => [
        ...documentCases(operation.path),
        {
          name: `${operation.operationId} document, malformed payment`,
          path: operation.path,
          body: eInvoiceXml(prepareEInvoice(EXAMPLE_EINVOICE), 'cii'),
          headers: { 'content-type': 'application/xml', 'PAYMENT-SIGNATURE': 'not base64!' },
        },
        {
          name: `${operation.operationId} hostile document with a payment`,
          path: operation.path,
          body: '<!DOCTYPE x><x/>',
          headers: {
            'content-type': 'application/xml',
            'PAYMENT-SIGNATURE': Buffer.from('{"x402Version":2}').toString('base64'),
          },
        },
      ]),
  );
  const eInvoiceRuleBroken = {
    ...(EXAMPLE_EINVOICE as Record<string, unknown>),
    seller: { ...(EXAMPLE_EINVOICE as { seller: object }).seller, country: undefined },
  };
  everyOperationCases.push(
    ...['/v1/e-invoice/ubl.xml', '/v1/e-invoice/cii.xml', '/v1/e-invoice/factur-x.pdf', '/v1/e-invoice/validate'].map(
      (path) => ({ name: `${path} EN 16931 rule broken`, path, body: json(eInvoiceRuleBroken) }),
    ),
  );

  test('over HTTP, inline and pooled answers are the same bytes for every operation', async () => {
    assert.ok(jsonOperations.length >= 10, `${jsonOperations.length} operations with a body`);
    assert.ok(
      jsonOperations.filter((operation) => operation.request!.document).length >= 2,
      'the document rows are covered',
    );
    const statuses = new Set<number>();
    for (const request of everyOperationCases) {
      const expected = await answer(inlinePaid, request);
      assert.deepEqual(await answer(pooledPaid, request), expected, request.name);
      statuses.add(expected.status);
    }
    // These apps have no renderer: 503 from PUT /v1/fonts (Chromium checks a font), 501 not_implemented from
    // the free POST /v1/templates/preview (it prints, as a paid invoice.pdf would after its payment).
    assert.deepEqual([...statuses].sort(), [200, 400, 402, 413, 415, 501, 503]);
  });

  test('over MCP, inline and pooled tool results are the same for every tool', async () => {
    const [inlineClient, pooledClient] = [await connectMcp(inlinePaid), await connectMcp(pooledPaid)];
    try {
      const started = Date.now();
      const { tools } = await inlineClient.listTools();
      console.log(`# tools/list in ${Date.now() - started} ms`);
      assert.ok(tools.length >= 11, `${tools.length} tools`);
      for (const tool of tools) {
        const example = (operations.find((operation) => operation.operationId === tool.name)?.request?.example ??
          {}) as Record<string, unknown>;
        const calls: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> }[] = [
          { name: tool.name, arguments: example },
          { name: tool.name, arguments: { ...example, currency: 'XXX', amount: 'a', extra: 1 } },
          { name: tool.name, arguments: { a: { ['__proto__']: 1 } } },
          { name: tool.name, arguments: example, _meta: { 'x402/payment': { x402Version: 2 } } },
          { name: tool.name, arguments: example, _meta: { 'x402/payment': 'x'.repeat(20_000) } },
        ];
        // A refused JSON-RPC body (the __proto__ key) is an HTTP error the client throws: compared as thrown.
        const resultOf = (client: Client, call: (typeof calls)[number]) =>
          client
            .callTool(call)
            .then((result) => JSON.parse(withoutFreshSignIn(JSON.stringify(result))) as unknown)
            .catch((error: unknown) => ({ thrown: String(error) }));
        for (const call of calls)
          assert.deepEqual(
            await resultOf(pooledClient, call),
            await resultOf(inlineClient, call),
            `${tool.name} ${JSON.stringify(call).slice(0, 120)}`,
          );
      }
    } finally {
      await inlineClient.close();
      await pooledClient.close();
    }
  });
});
