import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatAmount, trimComputed } from '../../../src/render/inbound/amountText.js';

test('formatAmount: at least the currency decimals, never fewer than the document wrote', () => {
  assert.equal(formatAmount('26000', 'en-GB', 0), '26,000');
  assert.equal(formatAmount('26000', 'en-GB'), '26,000.00');
  assert.equal(formatAmount('26000.5', 'en-GB', 0), '26,000.5');
  assert.equal(formatAmount('1.2', 'en-GB', 3), '1.200');
  assert.equal(formatAmount('-0', 'en-GB', 0), '0');
  assert.equal(formatAmount('-15', 'de-DE', 0), '−15');
});

test('trimComputed: zeros past the currency decimals go, other digits stay', () => {
  assert.equal(trimComputed('26000.00', 0), '26000');
  assert.equal(trimComputed('-26000.00', 0), '-26000');
  assert.equal(trimComputed('26000.50', 0), '26000.5');
  assert.equal(trimComputed('12.30', 2), '12.30');
  assert.equal(trimComputed('1.20', 3), '1.200');
  assert.equal(trimComputed('100', 2), '100');
});
