// A JSON body is read as bytes on the event loop and decoded on the compute pool (http/jsonBody.ts
// jsonBytes, requestJson.ts jsonTextOf): the text must be exactly what koa-body's reading (co-body
// → raw-body → iconv-lite's UTF-8, chunk by chunk) gave on the event loop before, for any bytes a
// client sends, however the network splits them.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import coBody from 'co-body';
import { jsonTextOf } from '../../../src/operations/requestJson.js';

/** A request whose body arrives in `chunks`, as co-body reads one. */
const request = (chunks: Buffer[]) =>
  Object.assign(Readable.from(chunks), {
    headers: { 'content-length': String(chunks.reduce((sum, chunk) => sum + chunk.length, 0)) },
  });

/** The bytes cut at random places, sometimes inside a UTF-8 sequence. */
function split(bytes: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    const next = Math.min(bytes.length, at + 1 + Math.floor(Math.random() * 7));
    chunks.push(bytes.subarray(at, next));
    at = next;
  }
  return chunks;
}

const asBefore = (chunks: Buffer[]) =>
  coBody.text(request(chunks) as never, { encoding: 'utf-8', limit: 1 << 20 }) as Promise<string>;
const asNow = async (chunks: Buffer[]) =>
  jsonTextOf((await coBody.text(request(chunks) as never, { encoding: null as never, limit: 1 << 20 })) as Buffer);

test('the pool decodes a body as the event loop did: BOMs, invalid and split UTF-8 included', async () => {
  const text = (value: string) => Buffer.from(value, 'utf8');
  const cases: Buffer[] = [
    Buffer.alloc(0),
    text('{"a":"b"}'),
    text('\ufeff{"a":"b"}'), // a leading BOM is dropped
    text('\ufeff\ufeff{}'), // only the first
    text('{"a":"\ufeff"}'), // not inside
    text('{"name":"Zoë Ångström 東京 🧾"}'),
    Buffer.from([0xef, 0xbb]), // a BOM cut short
    Buffer.from([0x7b, 0xc3, 0x28, 0x7d]), // an invalid continuation
    Buffer.from([0xed, 0xa0, 0x80]), // an encoded surrogate
    Buffer.from([0xf0, 0x9f, 0xa7]), // a truncated 4-byte sequence at the end
    Buffer.from([0xff, 0xfe, 0x7b, 0x00]), // UTF-16's BOM: not ours to honour
    Buffer.from([0xc0, 0xaf, 0xe0, 0x80, 0xaf, 0xf8, 0x88, 0x80, 0x80, 0x80]), // overlong and 5-byte forms
  ];
  for (let i = 0; i < 300; i++) cases.push(randomBytes(1 + Math.floor(Math.random() * 40)));
  // Valid text with random invalid bytes mixed in.
  for (let i = 0; i < 200; i++)
    cases.push(Buffer.concat([text('{"x":"é東🧾'), randomBytes(Math.floor(Math.random() * 6)), text('ü"}')]));
  for (const bytes of cases) {
    for (const chunks of [[bytes], split(bytes), split(bytes)]) {
      assert.equal(await asNow(chunks), await asBefore(chunks), `bytes ${bytes.toString('hex')}`);
    }
  }
});

test('no body read (a method koa-body leaves alone) is no text', () => {
  assert.equal(jsonTextOf(undefined), '');
});
