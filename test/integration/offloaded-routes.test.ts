// Operations parsed and computed on worker threads (COMPUTE_THREADS, src/compute) answer byte for
// byte what they answer parsed inline (COMPUTE_THREADS=0): successes, every kind of rejected
// input, bodies the parser refuses, compressed bodies, and the same calls over MCP.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eInvoiceXml } from '../../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_EINVOICE, EXAMPLE_PROFILE_REQUESTS } from '../../src/einvoice/example.js';
import { prepareEInvoice } from '../../src/einvoice/prepareEInvoice.js';
import { helperOperations } from '../../src/operations/helperOperations.js';
import { operationList } from '../../src/operations/operationList.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { EXAMPLE_REAL_WORLD_INVOICE } from '../../src/invoice/exampleRealWorld.js';
import { maximalFreeRequests } from '../fixtures/maximalFreeRequests.js';
import { startChallengeApp } from '../support/challengeApp.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

// A fixed clock: the helpers default `as_of` and `today` from it.
const now = () => new Date('2026-11-24T10:00:00Z');
let inline: TestApp;
let offloaded: TestApp;
before(async () => {
  inline = await startTestApp(
    { COMPUTE_THREADS: '0', RATE_LIMIT_CLIENT_BURST: '0', BODY_LIMIT_BYTES: '800000' },
    { now },
  );
  offloaded = await startTestApp(
    { COMPUTE_THREADS: '2', RATE_LIMIT_CLIENT_BURST: '0', BODY_LIMIT_BYTES: '800000' },
    { now },
  );
});
after(async () => {
  await inline.close();
  await offloaded.close();
});

type Case = {
  name: string;
  path: string;
  method?: string;
  body: string | Buffer;
  headers?: Record<string, string | undefined>;
};

const json = (value: unknown) => JSON.stringify(value);
const helperExample = (path: string) =>
  structuredClone(helperOperations().find((operation) => operation.path === path)!.request!.example) as Record<
    string,
    unknown
  >;

const cases: Case[] = [
  ...helperOperations().map((operation) => ({
    name: `${operation.operationId} example`,
    path: operation.path,
    body: json(operation.request!.example),
  })),
  { name: 'validate, SPEC example', path: '/v1/invoice/validate', body: json(EXAMPLE_INVOICE) },
  { name: 'validate, real-world example', path: '/v1/invoice/validate', body: json(EXAMPLE_REAL_WORLD_INVOICE) },
  ...maximalFreeRequests().map((request) => ({ name: request.name, path: request.path, body: json(request.body) })),
  {
    name: 'validate, every field wrong',
    path: '/v1/invoice/validate',
    body: json({
      ...EXAMPLE_INVOICE,
      currency: 'XXX',
      line_items: [{ description: '', quantity: -1, unit_price: 'a' }],
      extra: 1,
    }),
  },
  {
    name: 'validate, a business rule',
    path: '/v1/invoice/validate',
    body: json({ ...EXAMPLE_INVOICE, discount: 1_000_000 }),
  },
  // The e-invoice validate with its national rules.
  ...Object.entries(EXAMPLE_PROFILE_REQUESTS).map(([profile, body]) => ({
    name: `e-invoice validate, ${profile} example`,
    path: '/v1/e-invoice/validate',
    body: json(body),
  })),
  {
    name: 'e-invoice validate, national rules failing',
    path: '/v1/e-invoice/validate',
    body: json({ ...EXAMPLE_PROFILE_REQUESTS.fr, business_process: 'X', currency: 'USD' }),
  },
  {
    name: 'e-invoice validate, unknown profile',
    path: '/v1/e-invoice/validate',
    body: json({ ...EXAMPLE_PROFILE_REQUESTS.fr, profile: 'x' }),
  },
  {
    name: 'late fee, bad values',
    path: '/v1/late-fee',
    body: json({ ...helperExample('/v1/late-fee'), state: 'ZZ', grace_days: -1 }),
  },
  {
    name: 'timesheet, impossible date',
    path: '/v1/invoice-from-timesheet',
    body: json({
      ...helperExample('/v1/invoice-from-timesheet'),
      entries: [{ date: '2026-02-30', description: 'x', hours: 0 }],
    }),
  },
  {
    name: 'payment terms, unknown terms',
    path: '/v1/payment-terms',
    body: json({ ...helperExample('/v1/payment-terms'), terms: 'pay whenever' }),
  },
  { name: 'an array', path: '/v1/late-fee', body: '[1, 2]' },
  { name: 'an empty body', path: '/v1/invoice/validate', body: '' },
  { name: 'whitespace only', path: '/v1/invoice/validate', body: ' \n ' },
  { name: 'a number', path: '/v1/reminder-draft', body: '5' },
  { name: 'truncated JSON', path: '/v1/invoice/validate', body: '{"seller": {' },
  { name: 'a __proto__ key', path: '/v1/payment-terms', body: '{"__proto__": {"polluted": true}, "terms": "Net 30"}' },
  {
    name: 'gzip body',
    path: '/v1/invoice/validate',
    body: gzipSync(json(EXAMPLE_INVOICE)),
    headers: { 'content-encoding': 'gzip' },
  },
  {
    name: 'corrupt gzip body',
    path: '/v1/late-fee',
    body: gzipSync(json(helperExample('/v1/late-fee'))).subarray(0, 20),
    headers: { 'content-encoding': 'gzip' },
  },
  {
    name: 'text/plain',
    path: '/v1/late-fee',
    body: json(helperExample('/v1/late-fee')),
    headers: { 'content-type': 'text/plain' },
  },
  { name: 'over the body limit', path: '/v1/invoice/validate', body: `{"notes": "${'x'.repeat(800_001)}"}` },
  {
    name: 'invalid UTF-8',
    path: '/v1/reminder-draft',
    body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
  },
  // A document row (inbound e-invoices): the document itself as the body, read on the pool or inline.
  ...documentCases('/v1/e-invoice/inspect'),
];

/** The document bodies of a document row (operations/operation.ts `document`): read, refused, and not read at all. */
function documentCases(path: string): Case[] {
  const ownCii = eInvoiceXml(prepareEInvoice(EXAMPLE_EINVOICE), 'cii');
  const ownUbl = eInvoiceXml(prepareEInvoice(EXAMPLE_EINVOICE), 'ubl');
  return [
    { name: `${path} CII document`, path, body: ownCii, headers: { 'content-type': 'application/xml' } },
    {
      name: `${path} UBL document, text/xml, locale`,
      path: `${path}?locale=de-DE`,
      body: ownUbl,
      headers: { 'content-type': 'text/xml' },
    },
    {
      name: `${path} gzip document`,
      path,
      body: gzipSync(ownCii),
      headers: { 'content-type': 'application/xml', 'content-encoding': 'gzip' },
    },
    { name: `${path} JSON { xml }`, path, body: json({ xml: ownCii }) },
    {
      name: `${path} JSON { xml }, locale parameter`,
      path: `${path}?locale=fr-FR`,
      body: json({ xml: ownCii, locale: 'de-DE' }),
    },
    {
      name: `${path} DOCTYPE`,
      path,
      body: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "x">]><x>&e;</x>',
      headers: { 'content-type': 'application/xml' },
    },
    { name: `${path} not XML`, path, body: 'hello', headers: { 'content-type': 'application/xml' } },
    { name: `${path} unknown root`, path, body: '<Invoice/>', headers: { 'content-type': 'application/xml' } },
    { name: `${path} not a PDF`, path, body: 'not a pdf', headers: { 'content-type': 'application/pdf' } },
    {
      name: `${path} unknown locale`,
      path: `${path}?locale=xx-XX`,
      body: ownCii,
      headers: { 'content-type': 'application/xml' },
    },
    { name: `${path} a form`, path, body: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    {
      name: `${path} document over the limit`,
      path,
      body: Buffer.alloc(8 * 1024 * 1024 + 1, 0x20),
      headers: { 'content-type': 'application/xml' },
    },
  ];
}

async function answer(app: { url: string }, request: Case) {
  const response = await fetch(`${app.url}${request.path}`, {
    method: request.method ?? 'POST',
    headers: Object.fromEntries(
      Object.entries({ 'content-type': 'application/json', ...request.headers }).filter(
        (entry): entry is [string, string] => Boolean(entry[1]),
      ),
    ),
    body: typeof request.body === 'string' ? request.body : new Uint8Array(request.body),
    signal: AbortSignal.timeout(30_000),
  });
  const headers = ['content-type', 'content-length', 'payment-required', 'retry-after'].map((name) => {
    const value = response.headers.get(name);
    return name === 'payment-required' && value
      ? withoutFreshSignIn(Buffer.from(value, 'base64').toString('utf8'))
      : value;
  });
  return { status: response.status, headers, body: withoutFreshSignIn(await response.text()) };
}

/**
 * Every 402 offers sign-in-with-x with a fresh random nonce and the second it was made
 * (payment/signInWithX/signInChallenge.ts): those two values differ between any two answers, so
 * they are masked; everything else must be the same bytes.
 */
function withoutFreshSignIn(text: string): string {
  // Also inside JSON text that is itself a JSON string (MCP's text content: \" quotes).
  return text.replace(/(nonce\\?":\\?")[0-9a-f]{16}/g, '$1…').replace(/(issuedAt\\?":\\?")[0-9T:-]+Z/g, '$1…');
}

test('over HTTP, offloaded and inline routes answer the same bytes', async () => {
  const statuses = new Set<number>();
  for (const request of cases) {
    const expected = await answer(inline, request);
    assert.deepEqual(await answer(offloaded, request), expected, request.name);
    statuses.add(expected.status);
  }
  // The corpus reaches successes and each kind of refusal, not only one of them.
  assert.deepEqual([...statuses].sort(), [200, 400, 413, 415]);
});

test('over MCP, offloaded and inline tools give the same results', async () => {
  const connect = async (app: TestApp) => {
    const client = new Client({ name: 'offloaded-routes-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`)));
    return client;
  };
  const [inlineClient, offloadedClient] = [await connect(inline), await connect(offloaded)];
  try {
    const calls: [string, Record<string, unknown>][] = [
      ['v1_invoice_validate', EXAMPLE_REAL_WORLD_INVOICE as unknown as Record<string, unknown>],
      ['v1_invoice_validate', { ...EXAMPLE_INVOICE, discount: 1_000_000 }],
      ['v1_e_invoice_validate', EXAMPLE_PROFILE_REQUESTS.xrechnung as unknown as Record<string, unknown>],
      ['v1_e_invoice_validate', { ...EXAMPLE_PROFILE_REQUESTS.peppol, buyer: { name: 'B', country: 'BE' } }],
      ...helperOperations().map((operation): [string, Record<string, unknown>] => [
        operation.operationId,
        operation.request!.example as Record<string, unknown>,
      ]),
      ['v1_late_fee', { ...helperExample('/v1/late-fee'), state: 'ZZ' }],
      ['v1_e_invoice_inspect', { xml: eInvoiceXml(prepareEInvoice(EXAMPLE_EINVOICE), 'ubl') }],
      ['v1_e_invoice_inspect', { xml: '<!DOCTYPE x [<!ENTITY e "e">]><x>&e;</x>' }],
      ['v1_e_invoice_inspect', { pdf_base64: Buffer.from('not a pdf').toString('base64') }],
    ];
    for (const [name, args] of calls) {
      const expected = await inlineClient.callTool({ name, arguments: args });
      assert.deepEqual(await offloadedClient.callTool({ name, arguments: args }), expected, name);
    }
  } finally {
    await inlineClient.close();
    await offloadedClient.close();
  }
});

// Every operation, free and paid, on instances with payments (the real processor; its facilitator
// a closed port: nothing here gets past the challenge): the same bytes inline and on the pool,
// for valid bodies (the 402 challenge), every kind of refusal, price probes, and over MCP.
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
    const connect = async (app: { url: string }) => {
      const client = new Client({ name: 'offloaded-routes-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`)));
      return client;
    };
    const [inlineClient, pooledClient] = [await connect(inlinePaid), await connect(pooledPaid)];
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
