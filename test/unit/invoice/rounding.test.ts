import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decimalFromNumber, decimalToString, significantScale } from '../../../src/invoice/decimal.js';
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
    [-0.5, '-0.5', -5n, 1],
    [2 ** 53 + 2, '9007199254740994', 9007199254740994n, 0],
    [-(2 ** 60), '-1152921504606847000', -1152921504606847000n, 0],
  ];
  for (const [value, text, coefficient, scale] of cases) {
    const decimal = decimalFromNumber(value);
    assert.equal(decimalToString(decimal), text, String(value));
    // The integer and plain-text fast paths answer the same coefficient and scale as the exponent path.
    assert.deepEqual(decimalFromNumber(value), { coefficient, scale }, String(value));
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

test('decimalFromNumber reads every finite double back to itself, and significantScale counts the digits decimalToString prints (fast-check, 2000 runs, seed 7)', () => {
  fc.assert(
    fc.property(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer()), (value) => {
      const decimal = decimalFromNumber(value);
      const text = decimalToString(decimal);
      assert.equal(Number(text), value === 0 ? 0 : value, `${value} read as ${text}`);
      const padded = { coefficient: decimal.coefficient * 1000n, scale: decimal.scale + 3 };
      const printed = text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
      assert.equal(significantScale(decimal), printed, text);
      assert.equal(significantScale(padded), printed, `${text} with three more zeros`);
    }),
    { numRuns: 2000, seed: 7 },
  );
  assert.equal(significantScale({ coefficient: 0n, scale: 4 }), 0);
  assert.equal(significantScale({ coefficient: -1500n, scale: 3 }), 1);
});
