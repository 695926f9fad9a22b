import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { validateDiscoveryExtension } from '@x402/extensions/bazaar';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { startChallengeApp } from '../support/challengeApp.js';

/**
 * What crawlers see: x402scan's discovery runtime (@agentcash/discovery, run as its own CLI, as a
 * crawler would) against the app with its real payment gate, and the probes it sends.
 */
let app: Awaited<ReturnType<typeof startChallengeApp>>;
before(async () => {
  // The origin the documents name is the one the crawler reaches.
  const probe = await startChallengeApp();
  const port = new URL(probe.url).port;
  await probe.close();
  app = await startChallengeApp({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, PORT: port });
});
after(() => app.close());

// The package's own CLI (bin/discovery.js), beside its dist/ entry point.
const discoveryCli = join(
  dirname(createRequire(import.meta.url).resolve('@agentcash/discovery')),
  '..',
  'bin',
  'discovery.js',
);

/** The response's header block as sent: one `name: value\r\n` line per header. */
function headerLines(response: Response): string {
  let block = '';
  response.headers.forEach((value, name) => (block += `${name}: ${value}\r\n`));
  return block;
}

test('@agentcash/discovery finds every operation, prices the paid ones, and has 0 warnings', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [discoveryCli, 'discover', app.url, '--json'], {
    timeout: 60_000,
  });
  const result = JSON.parse(stdout) as {
    ok: boolean;
    resources: { path: string; authHint?: string; priceHint?: string; protocols?: string[] }[];
    warnings: { code: string }[];
  };
  assert.equal(result.ok, true);
  assert.deepEqual(result.warnings, []);
  const pdf = result.resources.find((resource) => resource.path === '/v1/invoice.pdf');
  assert.equal(pdf?.authHint, 'paid');
  assert.match(pdf?.priceHint ?? '', /0\.02/);
  assert.deepEqual(pdf?.protocols, ['x402']);
  const validate = result.resources.find((resource) => resource.path === '/v1/invoice/validate');
  assert.notEqual(validate?.authHint, 'paid');
  assert.ok(result.resources.length >= 13, `${result.resources.length} resources`);
});

// A bound against a hung request, not a speed check: as postJson's (testApp.ts), since 10 s ran out
// once for a whole run starved at nice 19 under load 29.
const post = (path: string, init: RequestInit = {}) =>
  fetch(`${app.url}${path}`, { method: 'POST', ...init, signal: AbortSignal.timeout(30_000) });

test('an unpaid POST without a body, or with an empty one, to a paid route is the 402 challenge', async () => {
  for (const init of [{}, { headers: { 'content-type': 'application/json' }, body: '' }] as RequestInit[]) {
    const response = await post('/v1/invoice.pdf', init);
    assert.equal(response.status, 402);
    const required = decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED')!);
    assert.equal(required.error, 'Payment required');
    assert.equal(required.accepts[0]?.amount, '20000');
    assert.equal((await response.json()).error.code, 'payment_required');
  }
  // A valid body is challenged too; an invalid non-empty body is a 400, before anything about payment.
  assert.equal(
    (
      await post('/v1/invoice.pdf', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(EXAMPLE_INVOICE),
      })
    ).status,
    402,
  );
  const invalid = await post('/v1/invoice.pdf', { headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.equal(invalid.status, 400);
  assert.equal(invalid.headers.get('PAYMENT-REQUIRED'), null);
  // A free route keeps its answers; a bodyless request with a signature is refused as before.
  assert.equal((await post('/v1/invoice/validate')).status, 415);
  assert.equal((await post('/v1/invoice.pdf', { headers: { 'PAYMENT-SIGNATURE': 'e30=' } })).status, 415);
});

test('the challenge fits in 4 KB; its bazaar extension, whole in the body and compact in the header, is valid, typed for a PDF, with serviceName and tags', async () => {
  for (const [path, type, format] of [
    ['/v1/invoice.pdf', 'binary', 'application/pdf'],
    ['/v1/e-invoice/ubl.xml', 'text', 'application/xml'],
  ] as const) {
    const response = await post(path);
    assert.equal(response.status, 402);
    const header = response.headers.get('PAYMENT-REQUIRED')!;
    const block = headerLines(response);
    assert.ok(block.length < 4096, `${path}: 402 header block is ${block.length} bytes`);
    const required = decodePaymentRequiredHeader(header);
    assert.equal(required.resource.url, `${app.url}${path}`);
    assert.equal((required.resource as { serviceName?: string }).serviceName, 'Invoice PDF API');
    assert.ok(((required.resource as { tags?: string[] }).tags ?? []).includes('invoice'));
    type Bazaar = Parameters<typeof validateDiscoveryExtension>[0];
    const compact = required.extensions?.bazaar as Bazaar;
    assert.deepEqual(validateDiscoveryExtension(compact), { valid: true });
    assert.equal((compact.info as { input: { method: string } }).input.method, 'POST');
    // The whole challenge is the body's: the same offer, with the full discovery declaration.
    const whole = (await response.json()).payment_required as typeof required;
    assert.deepEqual(whole.accepts, required.accepts);
    const bazaar = whole.extensions?.bazaar as Bazaar;
    assert.deepEqual(validateDiscoveryExtension(bazaar), { valid: true });
    // The example body in the challenge (cut to the required fields) is itself a valid request.
    const example = (bazaar.info as { input: { body: unknown } }).input.body;
    const validatePath = path.includes('e-invoice') ? '/v1/e-invoice/validate' : '/v1/invoice/validate';
    const checked = await post(validatePath, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(example),
    });
    assert.equal(checked.status, 200, `${path}: ${await checked.clone().text()}`);
    const output = (bazaar.info as { output?: { type?: string; format?: string } }).output;
    assert.equal(output?.type, type);
    assert.match(output?.format ?? '', new RegExp(format.replace('/', '\\/')));
  }
});

test('/.well-known/x402 lists absolute URLs; free operations have security: []', async () => {
  const manifest = await (await fetch(`${app.url}/.well-known/x402`)).json();
  assert.ok(manifest.resources.includes(`${app.url}/v1/invoice.pdf`));
  for (const url of manifest.resources) assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/v1\//);
  const openapi = await (await fetch(`${app.url}/openapi.json`)).json();
  assert.deepEqual(openapi.paths['/v1/invoice/validate'].post.security, []);
  assert.deepEqual(openapi.paths['/v1/invoice.pdf'].post['x-payment-info'].price, {
    mode: 'fixed',
    currency: 'USD',
    amount: '0.02',
  });
});

test('/.well-known/mcp/server.json describes the remote MCP server and its tools from the route table', async () => {
  const doc = await (await fetch(`${app.url}/.well-known/mcp/server.json`)).json();
  assert.match(doc.$schema, /server\.schema\.json$/);
  assert.match(doc.name, /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
  assert.ok(doc.description.length <= 100);
  assert.deepEqual(doc.remotes, [{ type: 'streamable-http', url: `${app.url}/mcp` }]);
  const tools = doc._meta['io.modelcontextprotocol.registry/publisher-provided'].tools as {
    name: string;
    price?: { amount: string };
  }[];
  assert.equal(tools.find((tool) => tool.name === 'v1_invoice_pdf')?.price?.amount, '0.02');
  assert.equal(tools.find((tool) => tool.name === 'v1_invoice_validate')?.price, undefined);
});

test('/mcp answers POST only: GET (no sessions, no event stream) is 405', async () => {
  const response = await fetch(`${app.url}/mcp`);
  assert.equal(response.status, 405);
  assert.equal(response.headers.get('allow'), 'POST');
});

test('/mcp takes one JSON-RPC message per POST: a batch is refused (it would run many tool calls for one rate-limit token)', async () => {
  const call = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'v1_invoice_validate', arguments: {} },
  });
  const response = await fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify([call(1), call(2), call(3)]),
  });
  assert.equal(response.status, 400);
  const body = (await response.json()) as { error: { code: number } };
  assert.equal(body.error.code, -32600);
});
