import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withDeadline } from '../../../src/render/deadline.js';

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

test('settles with the work when it is in time', async () => {
  assert.equal(await withDeadline(later(5, 'done'), 1_000, () => new Error('late')), 'done');
});

test('rejects with the deadline error when the work is late', async () => {
  await assert.rejects(
    withDeadline(later(1_000, 'done'), 5, () => new Error('late')),
    /late/,
  );
});

test('a late rejection of abandoned work is not an unhandled rejection', async () => {
  const abandoned = new Promise((_, reject) => setTimeout(() => reject(new Error('too late to matter')), 20));
  await assert.rejects(
    withDeadline(abandoned, 1, () => new Error('late')),
    /late/,
  );
  await later(40, undefined); // the test runner fails the file on an unhandled rejection
});
