import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../../src/errors.js';
import { splitRequestJson } from '../../../src/operations/requestJson.js';
import { runEnvelopeJob, type EnvelopeJobResult } from '../../../src/operations/operationJobs.js';
import { runJob } from '../../../src/operations/operationWorker.js';

const PATH = ['params', 'arguments'] as const;

// An MCP tools/call is split on the compute pool: the envelope comes back small, the arguments as
// JSON text that the operation's job parses and validates like an HTTP body.
test('the member at the path comes out as JSON text; the envelope keeps everything else', () => {
  const message = {
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: {
      name: 'v1_invoice_validate',
      arguments: { invoice_number: 'INV-1', line_items: [{ quantity: 2 }] },
      _meta: { 'x402/payment': { x402Version: 2 } },
    },
  };
  const { envelope, member } = splitRequestJson(JSON.stringify(message), PATH);
  assert.deepEqual(JSON.parse(member!.text), message.params.arguments);
  assert.equal(member!.isObject, true);
  assert.deepEqual(envelope, { ...message, params: { name: 'v1_invoice_validate', _meta: message.params._meta } });
});

test('arguments that are not an object are flagged; a message without them has no member', () => {
  for (const value of ['text', [1, 2], 42, null]) {
    const { member } = splitRequestJson(JSON.stringify({ params: { name: 'x', arguments: value } }), PATH);
    assert.equal(member!.isObject, false, JSON.stringify(value));
    assert.deepEqual(JSON.parse(member!.text), value);
  }
  assert.equal(splitRequestJson('{"jsonrpc":"2.0","method":"tools/list","id":1}', PATH).member, undefined);
  assert.equal(splitRequestJson('{"params":"not an object"}', PATH).member, undefined);
  assert.ok(Array.isArray(splitRequestJson('[{"id":1},{"id":2}]', PATH).envelope));
});

test('the envelope is parsed as strictly as a body: invalid JSON and a __proto__ key anywhere are refused', () => {
  assert.throws(
    () => splitRequestJson('{"params": ', PATH),
    (error) => error instanceof AppError && error.code === 'invalid_json',
  );
  assert.throws(
    () => splitRequestJson('{"params":{"arguments":{"seller":{"__proto__":{"x":1}}}}}', PATH),
    (error) => error instanceof AppError && error.code === 'validation_failed',
  );
});

// On the pool, the envelope arrives as the bytes read (mcpEndpoint.ts reads it as jsonBytes does)
// and its member goes back as the UTF-8 bytes of the same JSON text, their buffer transferred.
test('the envelope job decodes the bytes as a body is decoded and hands the member back as bytes', () => {
  const args = { invoice_number: 'Ünïcode €', line_items: [{ description: '日本語 👍' }] };
  const message = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'v1_invoice_validate', arguments: args },
  };
  const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(message))]);
  const job = { envelope: { bytes, path: PATH } };
  const { result, transfer } = runJob(job);
  const { envelope, member } = result as EnvelopeJobResult;
  const split = splitRequestJson(JSON.stringify(message), PATH);
  assert.deepEqual(envelope, split.envelope);
  assert.equal(Buffer.from(member!.bytes).toString('utf8'), split.member!.text);
  assert.equal(member!.isObject, true);
  assert.deepEqual(transfer, [member!.bytes.buffer]);
  assert.equal(member!.bytes.byteLength, member!.bytes.buffer.byteLength, 'its own buffer, not a pool slice');
  assert.deepEqual(runEnvelopeJob({ envelope: { bytes: undefined, path: PATH } }), { envelope: {} });
  assert.throws(() => runEnvelopeJob({ envelope: { bytes: Buffer.from('"text"'), path: PATH } }), AppError);
});
