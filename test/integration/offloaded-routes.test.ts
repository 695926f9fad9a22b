// Operations parsed and computed on worker threads (COMPUTE_THREADS, src/compute) answer byte for
// byte what they answer parsed inline (COMPUTE_THREADS=0): successes, every kind of rejected
// input, bodies the parser refuses, compressed bodies, and the same calls over MCP.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { eInvoiceXml } from '../../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_EINVOICE, EXAMPLE_PROFILE_REQUESTS } from '../../src/einvoice/example.js';
import { prepareEInvoice } from '../../src/einvoice/prepareEInvoice.js';
import { helperOperations } from '../../src/operations/helperOperations.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { EXAMPLE_REAL_WORLD_INVOICE } from '../../src/invoice/exampleRealWorld.js';
import { maximalFreeRequests } from '../fixtures/maximalFreeRequests.js';
import { answer, connectMcp, documentCases, helperExample, json, type Case } from '../support/sameAnswers.js';
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
  const [inlineClient, offloadedClient] = [await connectMcp(inline), await connectMcp(offloaded)];
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
