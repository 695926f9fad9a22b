// Compressed request bodies: a body that can't be decoded, or is labelled with the
// wrong encoding, is the client's mistake (400 invalid_body_encoding), never a 500; an encoding we
// don't decode is a 415 that names the ones we do.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

let app: TestApp;
before(async () => {
  app = await startTestApp();
});
after(() => app.close());

const json = Buffer.from(JSON.stringify(EXAMPLE_INVOICE));

async function send(body: Buffer, encoding: string) {
  const response = await fetch(`${app.url}/v1/invoice/validate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    body: new Uint8Array(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: (await response.json()) as { error?: { code: string; message: string } } };
}

test('identity, gzip, deflate and br bodies are decoded', async () => {
  for (const [encoding, body] of [
    ['identity', json],
    ['gzip', gzipSync(json)],
    ['deflate', deflateSync(json)],
    ['br', brotliCompressSync(json)],
  ] as const) {
    const answer = await send(body, encoding);
    assert.equal(answer.status, 200, `${encoding}: ${JSON.stringify(answer.body)}`);
  }
});

test('undecodable or mislabelled compressed bodies are a 400 invalid_body_encoding', async () => {
  const gzip = gzipSync(json);
  const cases: [string, Buffer, string][] = [
    ['corrupt gzip', Buffer.concat([gzip.subarray(0, 20), Buffer.alloc(40, 0xff), gzip.subarray(60)]), 'gzip'],
    ['truncated gzip', gzip.subarray(0, gzip.length - 30), 'gzip'],
    ['gzip header only', gzip.subarray(0, 10), 'gzip'],
    ['raw deflate without zlib header', deflateRawSync(json), 'deflate'],
    ['gzip labelled br', gzip, 'br'],
    ['truncated br', brotliCompressSync(json).subarray(0, 50), 'br'],
    ['plain JSON labelled gzip', json, 'gzip'],
    ['plain JSON labelled deflate', json, 'deflate'],
  ];
  for (const [name, body, encoding] of cases) {
    const answer = await send(body, encoding);
    assert.equal(answer.status, 400, `${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
    assert.equal(answer.body.error?.code, 'invalid_body_encoding', name);
  }
});

test('an encoding we do not decode is a 415 naming the ones we do', async () => {
  const answer = await send(json, 'compress');
  assert.equal(answer.status, 415);
  assert.equal(answer.body.error?.code, 'unsupported_media_type');
  assert.match(answer.body.error!.message, /identity, gzip, deflate or br/);
});
