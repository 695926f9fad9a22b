import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApp, type TestApp } from '../support/testApp.js';

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
  const operations = Object.values(doc.paths).flatMap((item: any) => Object.values(item).map((op: any) => op.operationId));
  for (const id of ['v1_invoice_pdf', 'v1_invoice_validate', 'v1_schema', 'v1_reminder_draft', 'v1_late_fee', 'v1_payment_terms', 'v1_invoice_from_timesheet', 'openapi', 'x402_manifest', 'llms_txt', 'api_catalog', 'sitemap', 'healthz']) {
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
    ['/v1/invoice.pdf', '/v1/e-invoice/factur-x.pdf', '/v1/e-invoice/cii.xml', '/v1/e-invoice/ubl.xml'].map((path) => `${base}${path}`),
  );
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
  const anchors = doc.linkset.map((entry: any) => entry.anchor);
  assert.ok(anchors.includes(`${base}/.well-known/api-catalog`));
  const service = doc.linkset.find((entry: any) => entry.anchor === `${base}/`);
  assert.equal(service['service-desc'][0].href, `${base}/openapi.json`);
  assert.equal(service.status[0].href, `${base}/healthz`);
});

test('/sitemap.xml lists the public GET documents with absolute URLs', async () => {
  const response = await get('/sitemap.xml');
  assert.match(response.headers.get('content-type') ?? '', /application\/xml/);
  const xml = await response.text();
  assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
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
