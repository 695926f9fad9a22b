import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../../src/errors.js';
import { splitRequestJson } from '../../../src/operations/requestJson.js';

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
