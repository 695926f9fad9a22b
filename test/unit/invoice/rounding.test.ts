import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decimalFromNumber, decimalToString } from '../../../src/invoice/decimal.js';
import { divideRounded, scaleRounded } from '../../../src/invoice/rounding.js';

test('divideRounded rounds half away from zero', () => {
  const cases: [bigint, bigint, bigint][] = [
    [5n, 10n, 1n], // 0.5 → 1
    [15n, 10n, 2n], // 1.5 → 2
    [25n, 10n, 3n], // 2.5 → 3 (not banker's 2)
    [-5n, 10n, -1n],
    [-25n, 10n, -3n],
    [4n, 10n, 0n],
    [-4n, 10n, 0n],
    [49n, 100n, 0n],
    [50n, 100n, 1n],
    [149n, 100n, 1n],
    [7n, 3n, 2n],
    [0n, 7n, 0n],
    [5n, -10n, -1n],
  ];
  for (const [numerator, denominator, expected] of cases) {
    assert.equal(divideRounded(numerator, denominator), expected, `${numerator}/${denominator}`);
  }
  assert.throws(() => divideRounded(1n, 0n), RangeError);
});

test('scaleRounded scales a decimal to integer units', () => {
  assert.equal(scaleRounded(125n, 3, 2), 13n); // 0.125 → 0.13
  assert.equal(scaleRounded(124n, 3, 2), 12n);
  assert.equal(scaleRounded(5n, 1, 0), 1n); // 0.5 JPY → 1
  assert.equal(scaleRounded(7n, 0, 2), 700n);
});

test('decimalFromNumber reads the shortest round-trip text exactly', () => {
  const cases: [number, string, bigint, number][] = [
    [0.1, '0.1', 1n, 1],
    [0.2, '0.2', 2n, 1],
    [1e21, '1000000000000000000000', 10n ** 21n, 0],
    [1.5e-7, '0.00000015', 15n, 8],
    [999999999.99, '999999999.99', 99999999999n, 2],
    [-0, '0', 0n, 0],
    [-2.5, '-2.5', -25n, 1],
    [123.45e2, '12345', 12345n, 0],
  ];
  for (const [value, text, coefficient, scale] of cases) {
    const decimal = decimalFromNumber(value);
    assert.equal(decimalToString(decimal), text, String(value));
    // Same value: compare both at a common scale.
    assert.equal(
      decimal.coefficient * 10n ** BigInt(30 - decimal.scale),
      coefficient * 10n ** BigInt(30 - scale),
      String(value),
    );
  }
  assert.throws(() => decimalFromNumber(Number.POSITIVE_INFINITY), RangeError);
  assert.throws(() => decimalFromNumber(Number.NaN), RangeError);
});
