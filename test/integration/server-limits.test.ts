// Limits as documented: a header block up to 32 KiB passes (a real PAYMENT-SIGNATURE is
// ~9.3 KB), a larger one gets the JSON 431 payment_header_too_large rather than Node's empty 431;
// header and request timeouts bite within about a second of their setting, not at Node's 30 s sweep.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createHttpServer, SERVER_LIMITS } from '../../src/http/httpServer.js';
import { createLogger } from '../../src/logger.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

let app: TestApp;
before(async () => {
  app = await startTestApp();
});
after(() => app.close());

const get = (url: string, headers: Record<string, string>) =>
  fetch(url, { headers, signal: AbortSignal.timeout(10_000) });

test('a header block of 24 KiB (a large payment header and more) goes through', async () => {
  const response = await get(`${app.url}/healthz`, { 'x-filler': 'a'.repeat(24 * 1024) });
  assert.equal(response.status, 200);
});

test('a header block over 32 KiB gets the JSON 431 payment_header_too_large', async () => {
  const response = await get(`${app.url}/healthz`, { 'x-filler': 'a'.repeat(40 * 1024) });
  assert.equal(response.status, 431);
  assert.match(response.headers.get('content-type') ?? '', /application\/json/);
  const body = (await response.json()) as { error: { code: string; message: string } };
  assert.equal(body.error.code, 'payment_header_too_large');
  assert.match(body.error.message, /32768 bytes/);
});

/** Opens a raw connection, writes `text`, and resolves with what came back and when the server closed it. */
function stall(url: string, text: string, boundMs: number): Promise<{ closedAfterMs: number; reply: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    let reply = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept a stalled connection open for ${boundMs} ms`));
    }, boundMs);
    socket.on('data', (chunk) => (reply += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ closedAfterMs: performance.now() - started, reply });
    });
  });
}

test(
  'header and request timeouts are enforced within about a second of their setting',
  { timeout: 30_000 },
  async () => {
    // The production limits with short timeouts, so the test waits seconds, not minutes. Before
    // connectionsCheckingInterval was set, Node swept every 30 s and both stalls lasted ~30 s.
    const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', PUBLIC_BASE_URL: 'https://invoices.example' });
    const { app: koa } = createApp({ config, logger: createLogger('silent') });
    const server = createHttpServer(koa.callback(), {
      ...SERVER_LIMITS,
      headersTimeoutMs: 1_000,
      requestTimeoutMs: 2_000,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const [headers, body] = await Promise.all([
        stall(url, 'POST /v1/invoice/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n', 10_000),
        stall(
          url,
          'POST /v1/invoice/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
          10_000,
        ),
      ]);
      console.log(
        `# headers timeout 1 s: closed after ${headers.closedAfterMs.toFixed(0)} ms; request timeout 2 s: closed after ${body.closedAfterMs.toFixed(0)} ms`,
      );
      assert.match(headers.reply, /^HTTP\/1\.1 408/);
      assert.match(body.reply, /^HTTP\/1\.1 408/);
      // Each closed well before Node's default 30 s sweep (10 s bound above); at or after its setting.
      assert.ok(headers.closedAfterMs >= 900, `headers: ${headers.closedAfterMs} ms`);
      assert.ok(body.closedAfterMs >= 1_900, `request: ${body.closedAfterMs} ms`);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  },
);
