import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { PROJECT_ROOT } from '../../src/render/templates.js';
import { hostileInvoice, invoiceWithItems } from '../fixtures/invoices.js';
import { pdfInfo } from '../fixtures/pdfTools.js';
import { postJson, startTestApp, type TestApp } from '../support/testApp.js';

/** The development preview's routes (the page itself is driven by test/browser/preview.spec.ts). */

describe('PREVIEW configuration', () => {
  test('on by default in development only, and refused outside development', () => {
    assert.equal(loadConfig({}).PREVIEW, 'on');
    assert.equal(loadConfig({ NODE_ENV: 'development', PREVIEW: 'off' }).PREVIEW, 'off');
    assert.equal(loadConfig({ NODE_ENV: 'production' }).PREVIEW, 'off');
    assert.equal(loadConfig({ NODE_ENV: 'test' }).PREVIEW, 'off');
    for (const NODE_ENV of ['production', 'test']) {
      assert.throws(
        () => loadConfig({ NODE_ENV, PREVIEW: 'on' }),
        (error: unknown) =>
          error instanceof ConfigError && /PREVIEW: on is allowed only with NODE_ENV=development/.test(error.message),
      );
    }
    assert.throws(() => loadConfig({ PREVIEW: 'yes' }), /PREVIEW: must be on or off/);
  });
});

describe('preview off', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ NODE_ENV: 'production' });
  });
  after(() => app.close());

  test('the routes do not exist', async () => {
    for (const [method, path] of [
      ['GET', '/preview'],
      ['GET', '/preview/preview.js'],
      ['GET', '/preview/events'],
      ['POST', '/preview/html'],
      ['POST', '/preview/invoice.pdf'],
    ] as const) {
      const response = await fetch(`${app.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: JSON.stringify(EXAMPLE_INVOICE) } : {}),
        signal: AbortSignal.timeout(10_000),
      });
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'not_found');
    }
  });
});

describe('preview on', () => {
  let renderer: Renderer;
  let app: TestApp;
  let templatesRoot: string;
  before(async () => {
    templatesRoot = mkdtempSync(join(tmpdir(), 'preview-test-templates-'));
    for (const dir of ['templates', 'styles'])
      cpSync(join(PROJECT_ROOT, dir), join(templatesRoot, dir), { recursive: true });
    renderer = await createRenderer({ poolSize: 1, templatesRoot, watchTemplates: true });
    app = await startTestApp({ NODE_ENV: 'development', PREVIEW: 'on' }, { renderer, preview: { renderer } });
  });
  after(async () => {
    await app.close();
    await renderer.close();
    rmSync(templatesRoot, { recursive: true, force: true });
  });

  const post = (path: string, body: unknown) => postJson(`${app.url}${path}`, body);

  test('GET /preview is the static page, loading only its own files', async () => {
    const response = await fetch(`${app.url}/preview`, { signal: AbortSignal.timeout(10_000) });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'none'; script-src 'self'/);
    const html = await response.text();
    assert.match(html, /Download PDF \(free in development only\)/);
    assert.deepEqual(
      [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]),
      ['/preview/preview.css', '/preview/preview.js'],
    );
    for (const file of ['preview.js', 'preview.css']) {
      const asset = await fetch(`${app.url}/preview/${file}`, { signal: AbortSignal.timeout(10_000) });
      assert.equal(asset.status, 200);
      assert.doesNotMatch(await asset.text(), /https?:\/\//, `${file} names no outside URL`);
    }
  });

  test('the preview routes are not API: no discovery document lists them', async () => {
    const openapi = await (await fetch(`${app.url}/openapi.json`, { signal: AbortSignal.timeout(10_000) })).json();
    assert.ok(!Object.keys(openapi.paths).some((path) => path.startsWith('/preview')));
  });

  test('POST /preview/html answers the filled HTML with user text escaped, the paper and the total', async () => {
    const response = await post('/preview/html', hostileInvoice('http://127.0.0.1:9'));
    assert.equal(response.status, 200);
    const body = (await response.json()) as { html: string; paper: string; total: string };
    const page = body.html.slice(body.html.indexOf('<body>'));
    assert.doesNotMatch(page, /<(img|link|iframe|script|object|svg)\b/i);
    assert.match(page, /&lt;img src&#x3D;http:\/\/127\.0\.0\.1:9\/x&gt;/);
    assert.equal(body.paper, 'Letter');

    const example = (await (await post('/preview/html', EXAMPLE_INVOICE)).json()) as { total: string };
    const validated = (await (await post('/v1/invoice/validate', EXAMPLE_INVOICE)).json()) as {
      total: { formatted: string };
    };
    assert.equal(example.total, validated.total.formatted);
  });

  test('an invalid invoice gets exactly the error body of POST /v1/invoice/validate', async () => {
    for (const invalid of [
      { ...EXAMPLE_INVOICE, line_items: [{ description: '', quantity: 0, unit_price: -1 }] },
      { ...EXAMPLE_INVOICE, discount: 1e9 },
      [],
    ]) {
      const preview = await post('/preview/html', invalid);
      const validate = await post('/v1/invoice/validate', invalid);
      assert.equal(preview.status, 400);
      assert.deepEqual(await preview.json(), await validate.json());
    }
    const badPaper = await postJson(`${app.url}/preview/html?paper=A3`, EXAMPLE_INVOICE);
    assert.equal(badPaper.status, 400);
    assert.equal(((await badPaper.json()) as { error: { issues: { path: string }[] } }).error.issues[0]!.path, 'paper');
  });

  test('a paper against the envelope is a 400 at paper; the paper of the envelope, or auto, prints', async () => {
    const letter = { ...EXAMPLE_INVOICE, envelope: 'us-10' };
    for (const [query, invoice] of [
      ['?paper=A4', letter],
      ['?paper=Letter', { ...EXAMPLE_INVOICE, envelope: 'din-5008-b' }],
    ] as const) {
      const refused = await post(`/preview/html${query}`, invoice);
      assert.equal(refused.status, 400, query);
      const issue = ((await refused.json()) as { error: { issues: { path: string; code: string }[] } }).error
        .issues[0]!;
      assert.deepEqual([issue.path, issue.code], ['paper', 'paper_conflict']);
    }
    for (const query of ['?paper=Letter', '?paper=auto', '']) {
      const shown = await post(`/preview/html${query}`, letter);
      assert.equal(shown.status, 200, query);
      assert.equal(((await shown.json()) as { paper: string }).paper, 'Letter');
    }
  });

  test('POST /preview/invoice.pdf is the real PDF, free, on the chosen paper', async () => {
    const response = await postJson(`${app.url}/preview/invoice.pdf?paper=A4`, invoiceWithItems(40));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename="invoice-INV-2026-0040.pdf"');
    const info = pdfInfo(Buffer.from(await response.arrayBuffer()));
    assert.equal(info.Pages, response.headers.get('x-page-count'));
    assert.ok(Number(info.Pages) >= 2);
    assert.match(info['Page size'] ?? '', /\(A4\)/);
  });

  test('POST /preview/pages answers one PNG per PDF page', async () => {
    const response = await postJson(`${app.url}/preview/pages?paper=Letter`, invoiceWithItems(40));
    const body = (await response.json()) as { pages: number; paper: string; images: string[] };
    assert.equal(body.paper, 'Letter');
    assert.ok(body.pages >= 2);
    assert.equal(body.images.length, body.pages);
    for (const image of body.images) assert.match(image, /^data:image\/png;base64,iVBORw0KGgo/);
  });

  test('a request another site makes from the browser is refused', async () => {
    const response = await postJson(`${app.url}/preview/invoice.pdf`, EXAMPLE_INVOICE, {
      'Sec-Fetch-Site': 'cross-site',
    });
    assert.equal(response.status, 403);
    assert.equal(response.headers.get('access-control-allow-origin'), null);
  });

  test('GET /preview/events announces template changes on disk, and failed ones', async () => {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 15_000);
    const header = join(templatesRoot, 'templates', 'partials', 'header.hbs');
    const original = readFileSync(header, 'utf8');
    try {
      const response = await fetch(`${app.url}/preview/events`, { signal: abort.signal });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
      const events = readEvents(response.body!);
      assert.equal(await events.next(), 'retry: 1000');

      writeFileSync(header, original.replace(/<h1[^>]*>\{\{documentTitle\}\}<\/h1>/, '<h1>Rechnung</h1>'));
      assert.equal(await events.next(), 'event: templates\ndata: {"ok":true}');
      const html = (await (await post('/preview/html', EXAMPLE_INVOICE)).json()) as { html: string };
      assert.match(html.html, /<h1>Rechnung<\/h1>/);

      writeFileSync(header, '{{#if}}');
      assert.match(await events.next(), /^event: templates\ndata: \{"ok":false,"error":".+"\}$/);
    } finally {
      writeFileSync(header, original);
      clearTimeout(timer);
      abort.abort();
    }
  });
});

/** The messages of an event stream (the blocks between blank lines), one at a time. */
function readEvents(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<string> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!message.startsWith(':')) return message;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the event stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    },
  };
}
