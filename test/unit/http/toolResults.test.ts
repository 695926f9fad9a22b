import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError, validationFailed } from '../../../src/errors.js';
import { httpAnswerOf } from '../../../src/http/errorAnswers.js';
import { resultOfError } from '../../../src/http/mcp/toolResults.js';

// A tool result has no headers: an MCP error says in its body what HTTP's Retry-After says.
test('MCP error results carry retry_after_seconds exactly where the HTTP answer has Retry-After', () => {
  const cases: [AppError, number | undefined][] = [
    [new AppError('rate_limited', 'Too many requests from this payer; retry after 3 s.', { retryAfterSeconds: 3 }), 3],
    [new AppError('renderer_busy', 'busy'), 1],
    [new AppError('payment_in_progress', 'in progress'), 5],
    [new AppError('payment_reused', 'reused'), undefined],
    [validationFailed([{ path: 'currency', code: 'invalid_value', message: 'must be one of USD' }]), undefined],
  ];
  for (const [error, seconds] of cases) {
    const result = resultOfError(error);
    const body = result.structuredContent as { error: Record<string, unknown> };
    assert.equal(result.isError, true);
    assert.equal(body.error.code, error.code);
    assert.equal(body.error.retry_after_seconds, seconds, error.code);
    assert.equal(
      httpAnswerOf(error).headers['Retry-After'],
      seconds === undefined ? undefined : String(seconds),
      error.code,
    );
    assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), body);
    // Otherwise the HTTP body exactly.
    const { retry_after_seconds: _seconds, ...rest } = body.error;
    assert.deepEqual({ error: rest }, error.toBody());
  }
});
