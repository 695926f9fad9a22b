import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EXAMPLE_EINVOICE } from '../../src/einvoice/example.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { createRedisThemeStore, type ThemeStore } from '../../src/themes/themeStore.js';
import { pdfPages } from '../fixtures/pdfTools.js';
import { startRedisServer, type RedisServer } from '../support/redisServer.js';
import { postJson, startPaymentSpyApp, startTestApp, type PaymentSpyApp, type TestApp } from '../support/testApp.js';

/**
 * PUT /v1/themes over HTTP, and invoices that name a stored theme: rendered with it, or refused
 * with a 400 before any payment when the id is unknown. Two app instances on one Redis share
 * their themes.
 */
let renderer: Renderer;
let redis: RedisServer;
let stores: ThemeStore[] = [];
let free: TestApp;
let priced: PaymentSpyApp;
let shared: [TestApp, TestApp];
before(
  async () => {
    renderer = await createRenderer({ poolSize: 1 });
    redis = await startRedisServer();
    stores = [createRedisThemeStore({ url: redis.url }), createRedisThemeStore({ url: redis.url })];
    free = await startTestApp({ PRICES: 'v1_invoice_pdf=0' }, { renderer });
    priced = await startPaymentSpyApp({}, { renderer });
    shared = [
      await startTestApp({ PRICES: 'v1_invoice_pdf=0' }, { renderer, themes: stores[0]! }),
      await startTestApp({ PRICES: 'v1_invoice_pdf=0' }, { renderer, themes: stores[1]! }),
    ];
  },
  { timeout: 60_000 },
);
after(async () => {
  for (const app of [free, priced, ...(shared ?? [])]) await app?.close();
  for (const store of stores) await store.close();
  await redis?.stop();
  await renderer?.close();
});

const putTheme = (app: TestApp, body: unknown) =>
  fetch(`${app.url}/v1/themes`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });

const THEME = { labels: { invoice: 'Tax invoice' }, colors: { accent: '#7a2e8f' } };

describe('PUT /v1/themes', () => {
  test(
    'answers the id; the same theme in another key order has the same id; an invoice naming it prints with it',
    { timeout: 60_000 },
    async () => {
      const response = await putTheme(free, THEME);
      assert.equal(response.status, 200);
      const { id, expires_in_seconds } = (await response.json()) as { id: string; expires_in_seconds: number };
      assert.match(id, /^sha256:[0-9a-f]{64}$/);
      assert.equal(expires_in_seconds, 30 * 24 * 3600);
      const again = (await (
        await putTheme(free, { colors: { accent: '#7a2e8f' }, labels: { invoice: 'Tax invoice' } })
      ).json()) as { id: string };
      assert.equal(again.id, id);
      const pdf = await postJson(`${free.url}/v1/invoice.pdf`, { ...EXAMPLE_INVOICE, theme: id });
      assert.equal(pdf.status, 200);
      assert.match(pdfPages(Buffer.from(await pdf.arrayBuffer()), 'raw')[0]!.replace(/ /g, ''), /TAXINVOICE/);
    },
  );

  test('a bad theme is a 400 with every path', async () => {
    const response = await putTheme(free, { colors: { accent: 'purple' }, font: 'Papyrus', extra: 1 });
    assert.equal(response.status, 400);
    const { error } = (await response.json()) as { error: { issues: { path: string }[] } };
    assert.deepEqual(error.issues.map((issue) => issue.path).sort(), ['colors.accent', 'extra', 'font']);
  });

  test('an unknown theme id is a 400 on "theme" before any payment; a known one goes on to payment', async () => {
    const unknown = await postJson(`${priced.url}/v1/invoice.pdf`, {
      ...EXAMPLE_INVOICE,
      theme: `sha256:${'0'.repeat(64)}`,
    });
    assert.equal(unknown.status, 400);
    const { error } = (await unknown.json()) as {
      error: { issues: { path: string; code: string; message: string }[] };
    };
    assert.deepEqual(error.issues, [{ path: 'theme', code: 'unknown_theme', message: error.issues[0]!.message }]);
    assert.equal(priced.paidCalls, 0, 'the payment gate never saw it');
    const { id } = (await (await putTheme(priced, THEME)).json()) as { id: string };
    const known = await postJson(`${priced.url}/v1/invoice.pdf`, { ...EXAMPLE_INVOICE, theme: id });
    assert.equal(known.status, 402);
    assert.equal(priced.paidCalls, 1);
  });

  test("a batch looks up every item's theme id before payment: each unknown one is an issue at invoices[i].theme", async () => {
    const before = priced.paidCalls;
    const { id } = (await (await putTheme(priced, THEME)).json()) as { id: string };
    const item = (number: string, theme?: string) => ({
      ...EXAMPLE_INVOICE,
      invoice_number: number,
      ...(theme ? { theme } : {}),
    });
    const unknown = await postJson(`${priced.url}/v1/invoices.zip`, {
      invoices: [
        item('B-1', id),
        item('B-2', `sha256:${'2'.repeat(64)}`),
        item('B-3'),
        item('B-4', `sha256:${'3'.repeat(64)}`),
      ],
    });
    assert.equal(unknown.status, 400);
    const { error } = (await unknown.json()) as { error: { issues: { path: string; code: string }[] } };
    assert.deepEqual(
      error.issues.map(({ path, code }) => ({ path, code })),
      [
        { path: 'invoices[1].theme', code: 'unknown_theme' },
        { path: 'invoices[3].theme', code: 'unknown_theme' },
      ],
    );
    assert.equal(priced.paidCalls, before, 'the paid call never saw it');
    const known = await postJson(`${priced.url}/v1/invoices.zip`, { invoices: [item('B-1', id), item('B-3')] });
    assert.equal(known.status, 402);
    assert.equal(priced.paidCalls, before + 1);
  });

  test('the validate operations look a theme id up too: an unknown one is the same 400, a known one answers as without it', async () => {
    const { id } = (await (await putTheme(free, { ...THEME, density: 'comfortable' })).json()) as { id: string };
    const unknownId = `sha256:${'1'.repeat(64)}`;
    for (const [path, invoice] of [
      ['/v1/invoice/validate', EXAMPLE_INVOICE],
      ['/v1/e-invoice/validate', EXAMPLE_EINVOICE],
    ] as const) {
      const unknown = await postJson(`${free.url}${path}`, { ...invoice, theme: unknownId });
      assert.equal(unknown.status, 400, path);
      const { error } = (await unknown.json()) as { error: { issues: { path: string; code: string }[] } };
      assert.deepEqual(
        error.issues.map(({ path, code }) => ({ path, code })),
        [{ path: 'theme', code: 'unknown_theme' }],
        path,
      );
      const known = await postJson(`${free.url}${path}`, { ...invoice, theme: id });
      assert.equal(known.status, 200, path);
      const plain = await postJson(`${free.url}${path}`, invoice);
      assert.deepEqual(await known.json(), await plain.json(), `${path}: the theme changes no total`);
    }
  });

  test('with Redis, a theme put on one instance is known to another', { timeout: 60_000 }, async () => {
    const { id } = (await (await putTheme(shared[0], { ...THEME, density: 'compact' })).json()) as { id: string };
    const pdf = await postJson(`${shared[1].url}/v1/invoice.pdf`, { ...EXAMPLE_INVOICE, theme: id });
    assert.equal(pdf.status, 200);
    assert.equal(
      (await postJson(`${free.url}/v1/invoice.pdf`, { ...EXAMPLE_INVOICE, theme: id })).status,
      400,
      'an instance with its own memory store does not know it',
    );
  });

  test('a theme store that fails is a 503 theme_store_unavailable, before the paid call', async () => {
    // A fake, named as one: a store whose Redis is unreachable (the real Redis store is used above).
    const unreachable: ThemeStore = {
      put: () => Promise.reject(new Error('ECONNREFUSED')),
      get: () => Promise.reject(new Error('ECONNREFUSED')),
      close: async () => undefined,
    };
    const app = await startPaymentSpyApp({}, { renderer, themes: unreachable });
    try {
      const put = await putTheme(app, THEME);
      assert.equal(put.status, 503);
      assert.equal(put.headers.get('retry-after'), '2');
      assert.equal(((await put.json()) as { error: { code: string } }).error.code, 'theme_store_unavailable');
      const before = app.paidCalls;
      const pdf = await postJson(`${app.url}/v1/invoice.pdf`, {
        ...EXAMPLE_INVOICE,
        theme: `sha256:${'3'.repeat(64)}`,
      });
      assert.equal(pdf.status, 503);
      assert.equal(((await pdf.json()) as { error: { code: string } }).error.code, 'theme_store_unavailable');
      assert.equal(app.paidCalls, before, 'the paid call never saw it');
      assert.equal(
        (await postJson(`${app.url}/v1/invoice.pdf`, EXAMPLE_INVOICE)).status,
        402,
        'an invoice without a theme id does not need the store',
      );
      assert.equal(app.paidCalls, before + 1);
    } finally {
      await app.close();
    }
  });

  test('over MCP: the theme tool stores a theme; an unknown id is refused before the paid call, a known one reaches it', async () => {
    const client = new Client({ name: 'themes-http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${priced.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.find((tool) => tool.name === 'v1_themes_put')?.annotations,
        { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
        'it stores, idempotently',
      );
      const stored = await client.callTool({ name: 'v1_themes_put', arguments: { ...THEME, font: 'DejaVu Serif' } });
      assert.equal(stored.isError, undefined);
      const { id } = stored.structuredContent as { id: string };
      assert.match(id, /^sha256:[0-9a-f]{64}$/);
      const before = priced.paidCalls;
      const unknown = await client.callTool({
        name: 'v1_invoice_pdf',
        arguments: { ...EXAMPLE_INVOICE, theme: `sha256:${'2'.repeat(64)}` },
      });
      assert.equal(unknown.isError, true);
      const { error } = unknown.structuredContent as {
        error: { code: string; issues: { path: string; code: string }[] };
      };
      assert.deepEqual(
        error.issues.map(({ path, code }) => ({ path, code })),
        [{ path: 'theme', code: 'unknown_theme' }],
      );
      assert.equal(priced.paidCalls, before, 'the paid call never saw it');
      await client.callTool({ name: 'v1_invoice_pdf', arguments: { ...EXAMPLE_INVOICE, theme: id } });
      assert.equal(priced.paidCalls, before + 1, 'a known id goes on to payment');
    } finally {
      await client.close();
    }
  });
});
