import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as v from 'valibot';
import { jsonSchemaOf } from '../../../src/invoice/fieldNotes.js';
import { helperOperations } from '../../../src/operations/helperOperations.js';
import type { Operation } from '../../../src/operations/operation.js';
import type { JsonAnswer } from '../../support/json.js';

const HELPER_OPERATIONS = helperOperations();

/** A body through the row as every transport runs it: parsed (every issue listed), then computed. */
const runOperation = (operation: Operation, body: unknown, today = '2026-11-22') => {
  const context = { today };
  return operation.compute!(operation.request!.parse(body, context), context);
};

test('the four operations, with their ids and paths', () => {
  assert.deepEqual(
    HELPER_OPERATIONS.map((operation) => [operation.operationId, operation.path]),
    [
      ['v1_reminder_draft', '/v1/reminder-draft'],
      ['v1_late_fee', '/v1/late-fee'],
      ['v1_payment_terms', '/v1/payment-terms'],
      ['v1_invoice_from_timesheet', '/v1/invoice-from-timesheet'],
    ],
  );
  for (const operation of HELPER_OPERATIONS) {
    assert.ok(operation.summary.length > 10 && operation.description.length > 50, operation.operationId);
  }
});

test('every example validates, runs, and answers exactly what the response schema documents', () => {
  for (const operation of HELPER_OPERATIONS) {
    // Sent as JSON, as a client would, on the day the published docs are computed for.
    const answer = runOperation(operation, JSON.parse(JSON.stringify(operation.request!.example)), '2026-11-22');
    const documented = v.safeParse(operation.response.schema!, answer);
    assert.ok(
      documented.success,
      `${operation.operationId}: ${JSON.stringify(documented.issues?.[0]?.path?.map((item) => item.key))}`,
    );
    // v.object drops keys it does not know: equality means no answered field is undocumented.
    assert.deepEqual(documented.output, answer, operation.operationId);
    assert.deepEqual(JSON.parse(JSON.stringify(answer)), answer, `${operation.operationId} survives JSON`);
    assert.deepEqual(
      operation.response.example,
      answer,
      `${operation.operationId}: the published answer is the example's`,
    );
  }
});

test('the examples show the interesting cases', () => {
  const [reminder, lateFee, terms, timesheet] = HELPER_OPERATIONS.map((operation) =>
    runOperation(operation, operation.request!.example),
  ) as JsonAnswer[];
  assert.equal(reminder.status, 'overdue');
  assert.equal(reminder.days_overdue, 7);
  assert.equal(lateFee.periods, 4);
  // 1.5% of 10803.74 = 162.0561 → 162.06, four periods
  assert.equal(lateFee.fee.minor, 64824);
  assert.deepEqual(
    lateFee.warnings.map((warning: { code: string }) => warning.code),
    ['rate_above_legal_rate', 'rate_above_contract_cap'],
  );
  assert.equal(terms.due_date, '2026-12-02');
  assert.equal(terms.discount_amount.minor, 21607); // 2% of 10803.74 = 216.0748
  assert.deepEqual(timesheet.summary.omitted_entries, []);
  assert.equal(timesheet.invoice.due_date, '2026-12-30');
});

test('request and response schemas convert to JSON Schema, strict at every level', () => {
  for (const operation of HELPER_OPERATIONS) {
    const request = jsonSchemaOf(operation.request!.schema);
    assert.equal(request.additionalProperties, false, operation.operationId);
    const nested = JSON.stringify(request).match(/"type":"object"/g)?.length ?? 0;
    const strict = JSON.stringify(request).match(/"additionalProperties":false/g)?.length ?? 0;
    assert.equal(strict, nested, `${operation.operationId}: every object is closed`);
    assert.equal(jsonSchemaOf(operation.response.schema!).type, 'object');
  }
});
