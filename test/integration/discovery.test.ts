import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createMetrics } from '../../src/metrics.js';
import { startTestApp, type TestApp } from '../support/testApp.js';
import type { JsonAnswer } from '../support/json.js';

let app: TestApp;
const base = 'https://invoices.example';
before(async () => {
  app = await startTestApp({ PUBLIC_BASE_URL: `${base}/` });
});
after(async () => {
  await app.close();
});

const get = (path: string) => fetch(`${app.url}${path}`, { signal: AbortSignal.timeout(10_000) });

test('/openapi.json is a valid OpenAPI 3.1.0 document describing every operation', async () => {
  const response = await get('/openapi.json');
  assert.equal(response.status, 200);
  const doc = await response.json();
  const result = await new Validator().validate(doc);
  assert.equal(result.valid, true, JSON.stringify(result.errors));
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.info.version, '1.2.0');
  assert.deepEqual(doc.servers, [{ url: base }]);
  const operations = Object.values(doc.paths).flatMap((item: JsonAnswer) =>
    Object.values(item).map((op: JsonAnswer) => op.operationId),
  );
  for (const id of [
    'v1_invoice_pdf',
    'v1_invoice_validate',
    'v1_schema',
    'v1_reminder_draft',
    'v1_late_fee',
    'v1_payment_terms',
    'v1_invoice_from_timesheet',
    'openapi',
    'x402_manifest',
    'llms_txt',
    'api_catalog',
    'sitemap',
    'healthz',
  ]) {
    assert.ok(operations.includes(id), `operation ${id}`);
  }
  const pdf = doc.paths['/v1/invoice.pdf'].post;
  assert.ok(pdf.responses['402'].headers['PAYMENT-REQUIRED']);
  assert.ok(pdf.responses['200'].headers['PAYMENT-RESPONSE']);
  assert.ok(pdf.responses['200'].content['application/pdf']);
  assert.equal(pdf.responses['400'].content['application/json'].schema.$ref, '#/components/schemas/ErrorBody');
  assert.deepEqual(pdf['x-payment-info'].price, { mode: 'fixed', amount: '0.02', currency: 'USD' });
  assert.equal(pdf['x-payment-info'].protocols[0].x402.network, 'eip155:8453');
  assert.equal(pdf.requestBody.content['application/json'].schema.additionalProperties, false);
  assert.equal(pdf.requestBody.content['application/json'].schema.properties.line_items.maxItems, 200);
  const validate = doc.paths['/v1/invoice/validate'].post;
  assert.equal(validate['x-payment-info'], undefined, 'validate is free');
  assert.equal(validate.responses['402'], undefined);
  assert.ok(validate.responses['200'].content['application/json'].schema.properties.total);
});

test('/.well-known/x402 lists only priced routes, with the offer', async () => {
  const doc = await (await get('/.well-known/x402')).json();
  assert.equal(doc.version, 1);
  assert.deepEqual(
    doc.resources,
    [
      '/v1/invoice.pdf',
      '/v1/e-invoice/factur-x.pdf',
      '/v1/e-invoice/cii.xml',
      '/v1/e-invoice/ubl.xml',
      '/v1/e-invoice/ksef.xml',
      '/v1/e-invoice/fatturapa.xml',
      '/v1/e-invoice/verifactu.xml',
      '/v1/invoices.zip',
      '/v1/e-invoice/render.pdf',
    ].map((path) => `${base}${path}`),
  );
  // The batch's price is per invoice (its 402 asks for it once per invoice).
  const batch = doc.resources.indexOf(`${base}/v1/invoices.zip`);
  assert.deepEqual(doc.offers[batch].price, { amount: '0.02', currency: 'USD', per: 'invoice' });
  assert.match(doc.instructions, /PAYMENT-SIGNATURE/);
  assert.deepEqual(doc.offers[0].price, { amount: '0.02', currency: 'USD' });
});

test('/llms.txt follows the llmstxt.org shape', async () => {
  const response = await get('/llms.txt');
  assert.match(response.headers.get('content-type') ?? '', /text\/plain/);
  const text = await response.text();
  const lines = text.split('\n');
  assert.match(lines[0] ?? '', /^# \S/);
  assert.match(lines[2] ?? '', /^> \S/);
  assert.ok(lines.includes('## Invoices'));
  assert.ok(lines.includes('## Helpers'));
  assert.match(text, /- \[POST \/v1\/invoice\.pdf\]\(https:\/\/invoices\.example\/openapi\.json\): .*0\.02 USD/);
});

test('/.well-known/api-catalog is an RFC 9727 linkset', async () => {
  const response = await get('/.well-known/api-catalog');
  assert.equal(response.headers.get('content-type'), 'application/linkset+json');
  const doc = await response.json();
  const anchors = doc.linkset.map((entry: JsonAnswer) => entry.anchor);
  assert.ok(anchors.includes(`${base}/.well-known/api-catalog`));
  const service = doc.linkset.find((entry: JsonAnswer) => entry.anchor === `${base}/`);
  assert.equal(service['service-desc'][0].href, `${base}/openapi.json`);
  assert.equal(service.status[0].href, `${base}/healthz`);
});

test('/sitemap.xml lists the public GET documents with absolute URLs', async () => {
  const response = await get('/sitemap.xml');
  assert.match(response.headers.get('content-type') ?? '', /application\/xml/);
  const xml = await response.text();
  assert.match(
    xml,
    /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
  );
  for (const path of ['/openapi.json', '/llms.txt', '/v1/schema', '/.well-known/x402', '/.well-known/api-catalog']) {
    assert.ok(xml.includes(`<loc>${base}${path}</loc>`), path);
  }
  assert.ok(!xml.includes('/v1/invoice.pdf'));
});

test('/docs serves Swagger UI from the npm package, linked from llms.txt and the api-catalog', async () => {
  const page = await get('/docs');
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /<script src="\/docs\/swagger-ui-bundle.js"><\/script>/);
  assert.doesNotMatch(html, /https?:\/\/(?!invoices\.example)[a-z]/i, 'no CDN');
  for (const asset of ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/init.js']) {
    const response = await get(asset);
    assert.equal(response.status, 200, asset);
    assert.ok((await response.arrayBuffer()).byteLength > 50, asset);
  }
  assert.equal((await get('/docs/../package.json')).status, 404);
  const catalog = await (await get('/.well-known/api-catalog')).json();
  assert.ok(JSON.stringify(catalog).includes(`${base}/docs`));
  assert.match(await (await get('/llms.txt')).text(), /\[GET \/docs\]/);
  const openapi = await (await get('/openapi.json')).json();
  assert.match(openapi.paths['/v1/invoice.pdf'].post.description, /Price: 0\.02 USD per call/);
});

// The rate limits: every operation they can refuse declares the 429 and its headers;
// the probes, which they never refuse, declare none.
const PROBES = ['/healthz', '/readyz', '/metrics'];
const operationsOf = (doc: JsonAnswer): { path: string; op: JsonAnswer }[] =>
  Object.entries(doc.paths).flatMap(([path, item]: [string, JsonAnswer]) =>
    Object.values(item).map((op: JsonAnswer) => ({ path, op })),
  );

async function openApiWith(env: Record<string, string>) {
  const limited = await startTestApp(
    { PUBLIC_BASE_URL: base, ...env },
    { readiness: async () => ({ ready: true, checks: {} }), metrics: createMetrics() },
  );
  try {
    const get = (path: string) => fetch(`${limited.url}${path}`, { signal: AbortSignal.timeout(10_000) });
    const doc = await (await get('/openapi.json')).json();
    const result = await new Validator().validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
    return { doc, llms: await (await get('/llms.txt')).text() };
  } finally {
    await limited.close();
  }
}

test('/openapi.json: every operation but the probes declares 429 rate_limited (error body, Retry-After, RateLimit-Policy, RateLimit) and the RateLimit headers on its 200', async () => {
  const { doc, llms } = await openApiWith({});
  const operations = operationsOf(doc);
  assert.deepEqual(
    operations
      .filter(({ path }) => PROBES.includes(path))
      .map(({ path }) => path)
      .sort(),
    [...PROBES].sort(),
  );
  assert.ok(operations.length > 15, `${operations.length} operations`);
  const header = (ref: { $ref: string }) => doc.components.headers[ref.$ref.replace('#/components/headers/', '')];
  for (const { path, op } of operations) {
    if (PROBES.includes(path)) {
      assert.equal(op.responses['429'], undefined, path);
      assert.equal(op.responses['200'].headers?.RateLimit, undefined, path);
      continue;
    }
    const limited = op.responses['429'];
    assert.ok(limited, `${path}: 429`);
    assert.equal(limited.content['application/json'].schema.$ref, '#/components/schemas/ErrorBody', path);
    assert.match(limited.description, /rate_limited/);
    assert.match(limited.description, /per client address: a burst of 200 requests, then 50 a second/);
    assert.equal(
      /per payer/.test(limited.description),
      op['x-payment-info'] !== undefined,
      `${path}: the payer limit only on paid routes`,
    );
    assert.deepEqual(Object.keys(limited.headers).sort(), ['RateLimit', 'RateLimit-Policy', 'Retry-After'], path);
    for (const ref of Object.values(limited.headers) as { $ref: string }[])
      assert.equal(header(ref).schema.type, ref.$ref.endsWith('Retry-After') ? 'integer' : 'string', ref.$ref);
    assert.deepEqual(op.responses['200'].headers.RateLimit, { $ref: '#/components/headers/RateLimit' }, path);
    assert.deepEqual(
      op.responses['200'].headers['RateLimit-Policy'],
      { $ref: '#/components/headers/RateLimit-Policy' },
      path,
    );
  }
  // The paid route keeps its receipt header beside them.
  assert.ok(doc.paths['/v1/invoice.pdf'].post.responses['200'].headers['PAYMENT-RESPONSE']);
  assert.match(
    llms,
    /rate-limited per client address and per payer on paid routes and paid MCP tool calls \(not \/healthz, \/readyz, \/metrics\): over a limit the answer is 429 with the error code rate_limited/,
  );
});

test('/openapi.json declares only the limits in force: the payer limit alone → 429 on paid operations only; both off → no 429', async () => {
  const payerOnly = await openApiWith({ RATE_LIMIT_CLIENT_BURST: '0' });
  for (const { path, op } of operationsOf(payerOnly.doc)) {
    const paid = op['x-payment-info'] !== undefined;
    assert.equal(op.responses['429'] !== undefined, paid, path);
    if (paid) assert.doesNotMatch(op.responses['429'].description, /client address/);
  }
  assert.match(payerOnly.llms, /rate-limited per payer on paid routes/);

  const off = await openApiWith({ RATE_LIMIT_CLIENT_BURST: '0', RATE_LIMIT_PAYER_BURST: '0' });
  for (const { path, op } of operationsOf(off.doc)) {
    assert.equal(op.responses['429'], undefined, path);
    assert.equal(op.responses['200'].headers?.RateLimit, undefined, path);
  }
  assert.equal(off.doc.components.headers.RateLimit, undefined);
  assert.doesNotMatch(off.llms, /rate_limited/);
});
