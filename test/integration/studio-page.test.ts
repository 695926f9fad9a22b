import assert from 'node:assert/strict';
import { get } from 'node:http';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/testApp.js';
import { DESIGNS } from '../../src/invoice/designFields.js';
import { ENVELOPE_NAMES } from '../../src/invoice/envelopes.js';
import { LANGUAGES } from '../../src/invoice/locales.js';

let app: TestApp;
before(async () => {
  app = await startTestApp({ NODE_ENV: 'production', COMPUTE_THREADS: '0' });
});
after(() => app?.close());

test('GET /studio is served in production, under a policy that allows this origin only', async () => {
  const response = await fetch(`${app.url}/studio`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
  const csp = response.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  // CodeMirror's <style> elements carry the page's nonce, new on every request.
  const nonce = /style-src 'self' 'nonce-([A-Za-z0-9+/]{24})'(;|$)/.exec(csp)?.[1];
  assert.ok(nonce, csp);
  const other = (await fetch(`${app.url}/studio`)).headers.get('content-security-policy') ?? '';
  assert.ok(!other.includes(nonce));
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /unsafe|https?:/);
  const html = await response.text();
  assert.ok(html.includes(`<script type="module" src="/studio/studio.js" nonce="${nonce}">`));
  // Every script and stylesheet is one of the service's own files.
  const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
  assert.deepEqual(
    sources.filter((source) => !source.startsWith('/') && !source.startsWith('#')),
    [],
  );
  for (const design of DESIGNS) assert.match(html, new RegExp(`<option value="${design}">`));
  for (const language of LANGUAGES) assert.match(html, new RegExp(`<option value="${language}">`));
  for (const envelope of ENVELOPE_NAMES) assert.match(html, new RegExp(`<option value="${envelope}">`));
  // Every control has its label.
  for (const match of html.matchAll(/<(?:select|input)[^>]* id="([^"]+)"/g)) {
    assert.match(html, new RegExp(`<label for="${match[1]}">`), `no label for #${match[1]}`);
  }
});

test(
  'the page script, its stylesheet and the pdf.js worker are bundled and revalidated by ETag',
  { timeout: 60_000 },
  async () => {
    for (const [file, type, marker] of [
      ['studio.js', /^text\/javascript/, 'Page '],
      ['studio.css', /^text\/css/, 'prefers-color-scheme'],
      ['pdf.worker.js', /^text\/javascript/, 'WorkerMessageHandler'],
    ] as const) {
      const response = await fetch(`${app.url}/studio/${file}`);
      assert.equal(response.status, 200, file);
      assert.match(response.headers.get('content-type') ?? '', type);
      assert.ok((await response.text()).includes(marker), `${file} holds ${marker}`);
      const etag = response.headers.get('etag');
      assert.ok(etag);
      // As a browser revalidates (fetch() itself would add Cache-Control: no-cache, which forbids a 304).
      assert.equal(await statusOf(`${app.url}/studio/${file}`, { 'If-None-Match': etag }), 304);
    }
    assert.equal((await fetch(`${app.url}/studio/nothing.js`)).status, 404);
    // fetch() asks for gzip and unpacks it: the script travels in about a third of its size.
    const script = await fetch(`${app.url}/studio/studio.js`);
    assert.equal(script.headers.get('content-encoding'), 'gzip');
    assert.ok(Number(script.headers.get('content-length')) < (await script.arrayBuffer()).byteLength / 2);
  },
);

function statusOf(url: string, headers: Record<string, string>): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      response.resume();
      resolve(response.statusCode);
    }).on('error', reject);
  });
}
