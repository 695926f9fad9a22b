import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, failureText, jsonRequest, readJson } from '../../../src/http/studio/client/api.js';

const answer =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  async () =>
    new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers });

test('a 2xx answer is read; a 400 carries the service error shape with its issues', async () => {
  assert.deepEqual(await call(answer(200, { ok: true }), '/x', {}, readJson), { ok: true, value: { ok: true } });
  const issues = [
    { path: 'css', code: 'css_syntax', message: 'Unclosed block', line: 3, column: 1 },
    { path: 'totals.due', code: 'missing_fact', message: 'not shown', invoice: 'one-line' },
    { path: 7, code: 'bad' },
  ];
  const refused = await call(
    answer(400, { error: { code: 'template_invalid', message: 'The template is refused.', issues } }),
    '/x',
    {},
    readJson,
  );
  assert.deepEqual(refused, {
    ok: false,
    failure: {
      kind: 'rejected',
      status: 400,
      code: 'template_invalid',
      message: 'The template is refused.',
      issues: issues.slice(0, 2),
    },
  });
});

test('429 with Retry-After, a network error and a 5xx page are failures the page can say, never a body', async () => {
  const limited = await call(
    answer(429, { error: { code: 'rate_limited' } }, { 'Retry-After': '3' }),
    '/x',
    {},
    readJson,
  );
  assert.deepEqual(limited, { ok: false, failure: { kind: 'rate_limited', retryAfterSeconds: 3 } });
  assert.match(
    failureText({ kind: 'rate_limited', retryAfterSeconds: 3 }, 'The preview'),
    /429.*3 s; your text is kept/,
  );

  const offline = await call(
    async () => {
      throw new TypeError('fetch failed');
    },
    '/x',
    {},
    readJson,
  );
  assert.deepEqual(offline, { ok: false, failure: { kind: 'network' } });
  assert.match(failureText({ kind: 'network' }, 'The preview'), /network error\). Your text is kept/);

  const crashed = await call(answer(500, 'TypeError: x is undefined\n    at render (file.ts:1:1)'), '/x', {}, readJson);
  assert.deepEqual(crashed, { ok: false, failure: { kind: 'server', status: 500 } });
  assert.doesNotMatch(failureText({ kind: 'server', status: 500 }, 'Saving'), /TypeError|at render/);

  const notJson = await call(answer(404, '<html>gone</html>'), '/x', {}, readJson);
  assert.deepEqual(notJson, {
    ok: false,
    failure: { kind: 'rejected', status: 404, code: 'http_404', message: 'The service answered 404.', issues: [] },
  });
});

test('an aborted request is rethrown: the run that aborted it expects no answer', async () => {
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(
    call(
      async () => {
        throw new DOMException('aborted', 'AbortError');
      },
      '/x',
      jsonRequest('POST', {}, controller.signal),
      readJson,
    ),
    { name: 'AbortError' },
  );
});

test('jsonRequest sends the body as JSON with its method', () => {
  assert.deepEqual(jsonRequest('PUT', { css: 'a{}' }), {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: '{"css":"a{}"}',
  });
});
