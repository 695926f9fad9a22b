import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { CURRENCIES, CURRENCY_CODES, minorDigitsOf, type CurrencyCode } from '../../../src/invoice/currencies.js';
import { checkTotals } from '../../../src/invoice/checkTotals.js';
import { minorToDecimal, toMoney } from '../../../src/invoice/money.js';
import { computeTotals } from '../../../src/invoice/totals.js';
import { InputRejected } from '../../../src/errors.js';

const totals = (
  lines: [number, number][],
  extra: { currency?: CurrencyCode; tax_rate?: number; discount?: number } = {},
) =>
  computeTotals({
    currency: extra.currency ?? 'USD',
    line_items: lines.map(([quantity, unit_price]) => ({ quantity, unit_price })),
    tax_rate: extra.tax_rate,
    discount: extra.discount,
  });

test('line amounts are exact decimal products, rounded once, half away from zero', () => {
  const cases: { lines: [number, number][]; currency?: CurrencyCode; expected: bigint[] }[] = [
    { lines: [[0.1, 0.2]], expected: [2n] }, // 0.02 exactly, not 0.020000000000000004
    { lines: [[1, 0.125]], expected: [13n] }, // half → away from zero
    { lines: [[1, 0.135]], expected: [14n] },
    { lines: [[3, 0.335]], expected: [101n] }, // 1.005 → 1.01
    { lines: [[1.5, 0.01]], expected: [2n] }, // 0.015 → 0.02
    { lines: [[1, 0.005]], expected: [1n] },
    { lines: [[1, 0.0049]], expected: [0n] },
    { lines: [[1, 0.5]], currency: 'JPY', expected: [1n] }, // ¥0.5 → ¥1
    { lines: [[3, 33.5]], currency: 'JPY', expected: [101n] }, // 100.5 → 101
    {
      lines: [
        [12.5, 140],
        [6, 350],
      ],
      expected: [175000n, 210000n],
    },
    { lines: [[1000000, 999999999.99]], expected: [99999999999000000n] },
  ];
  for (const { lines, currency, expected } of cases) {
    assert.deepEqual(totals(lines, { currency }).lineAmounts, expected, JSON.stringify(lines));
  }
});

test('discount before tax, tax rounded once on the taxable amount', () => {
  const result = totals(
    [
      [1, 100],
      [3, 33.33],
    ],
    { discount: 10.01, tax_rate: 7.5 },
  );
  assert.equal(result.subtotal, 19999n);
  assert.equal(result.discount, 1001n);
  assert.equal(result.taxable, 18998n);
  assert.equal(result.tax, 1425n); // 1424.85 → 1425
  assert.equal(result.total, 20423n);
  // Half case on the tax: 10.00 × 5% = 0.50 exactly... 0.10 × 5% = 0.005 → 0.01
  assert.equal(totals([[1, 0.1]], { tax_rate: 5 }).tax, 1n);
  assert.equal(totals([[1, 0.3]], { tax_rate: 2.5 }).tax, 1n); // 0.0075 → 0.01
  assert.equal(totals([[1, 0.19]], { tax_rate: 2.5 }).tax, 0n); // 0.00475 → 0.00
  assert.equal(totals([[1, 100]], { tax_rate: 100 }).total, 20000n);
});

test('JPY has no minor digits: amounts are whole yen', () => {
  const result = totals(
    [
      [2, 1234.5],
      [1, 0.4],
    ],
    { currency: 'JPY', tax_rate: 10, discount: 0.5 },
  );
  assert.deepEqual(result.lineAmounts, [2469n, 0n]);
  assert.equal(result.discount, 1n);
  assert.equal(result.taxable, 2468n);
  assert.equal(result.tax, 247n); // 246.8 → 247
  assert.equal(toMoney(result.total, 'JPY').formatted, '￥2,715');
  assert.equal(toMoney(result.total, 'JPY').decimal, '2715');
});

test('every currency formats with its own digits and symbol', () => {
  const expected: Record<CurrencyCode, string> = {
    USD: '$1,234.50',
    EUR: '€1,234.50',
    GBP: '£1,234.50',
    JPY: '￥1,235',
    CAD: '$1,234.50',
    AUD: '$1,234.50',
    CHF: 'CHF 1’234.50',
    CNY: '¥1,234.50',
    INR: '₹1,234.50',
    MXN: '$1,234.50',
    BRL: 'R$ 1.234,50',
    SGD: '$1,234.50',
    PLN: '1234,50 zł',
    NZD: '$1,234.50',
    MYR: 'RM 1,234.50',
    AED: 'AED 1,234.50',
  };
  for (const code of CURRENCY_CODES) {
    const result = totals([[1, 1234.5]], { currency: code });
    const money = toMoney(result.total, code);
    assert.equal(money.minor, CURRENCIES[code].digits === 0 ? 1235 : 123450, code);
    assert.equal(money.formatted.replace(/\u00a0/g, ' ').replace(/'/g, '’'), expected[code], code);
  }
});

test('the extremes stay exact and are refused above 2^53 − 1 minor units', () => {
  const lines = Array.from({ length: 200 }, () => [1000000, 999999999.99] as [number, number]);
  const result = totals(lines);
  assert.equal(result.subtotal, 200n * 99999999999000000n);
  assert.equal(result.subtotal, 19999999999800000000n);
  const error = checkTotals(result);
  assert.ok(error instanceof InputRejected, 'a rejection of the input (400)');
  assert.equal(error?.code, 'amount_out_of_range');
  assert.equal(error?.issues?.length, 202); // every line, the subtotal and the total
  assert.equal(error?.issues?.[0]?.path, 'line_items[0]');
  // Just below the cap is answered exactly.
  // (90071992547409.91 itself is not a double, so the cap is reached with two lines.)
  const cap = totals([
    [100000, 900719925.47409],
    [1, 0.91],
  ]);
  assert.equal(cap.total, 9007199254740991n);
  assert.equal(checkTotals(cap), undefined);
  assert.equal(toMoney(cap.total, 'USD').minor, Number.MAX_SAFE_INTEGER);
  assert.equal(toMoney(cap.total, 'USD').formatted, '$90,071,992,547,409.91');
  const over = totals([
    [100000, 900719925.47409],
    [1, 0.92],
  ]);
  assert.equal(checkTotals(over)?.code, 'amount_out_of_range');
});

test('a discount above the subtotal is refused', () => {
  assert.equal(checkTotals(totals([[1, 10]], { discount: 10 })), undefined);
  const error = checkTotals(totals([[1, 10]], { discount: 10.01 }));
  assert.equal(error?.code, 'discount_exceeds_subtotal');
  assert.equal(error?.issues?.[0]?.path, 'discount');
});

// An independent reference: exact rational arithmetic on decimal strings, written differently
// (string digit manipulation and a numerator/denominator pair) from the engine.
function reference(lines: [string, string][], discount: string, rate: string, digits: number) {
  const frac = (text: string): [bigint, bigint] => {
    const [whole, part = ''] = text.split('.');
    return [BigInt(whole + part), 10n ** BigInt(part.length)];
  };
  const round = (n: bigint, d: bigint) => {
    const twice = (2n * n + d) / (2n * d); // n, d ≥ 0 here: floor(n/d + 1/2)
    return twice;
  };
  const unit = 10n ** BigInt(digits);
  let subtotal = 0n;
  for (const [q, p] of lines) {
    const [qn, qd] = frac(q);
    const [pn, pd] = frac(p);
    subtotal += round(qn * pn * unit, qd * pd);
  }
  const [dn, dd] = frac(discount);
  const taxable = subtotal - round(dn * unit, dd);
  const [rn, rd] = frac(rate);
  return taxable + round(taxable * rn, rd * 100n);
}

test('property: totals equal an independent exact computation', () => {
  const cents = (max: number) => fc.integer({ min: 0, max }).map((n) => n / 100);
  const quantity = fc.oneof(
    fc.integer({ min: 1, max: 1000 }),
    fc.integer({ min: 1, max: 100000 }).map((n) => n / 1000),
  );
  fc.assert(
    fc.property(
      fc.array(
        fc.tuple(
          quantity,
          fc.oneof(
            cents(10_000_000),
            fc.integer({ min: 0, max: 100000 }).map((n) => n / 1000),
          ),
        ),
        { minLength: 1, maxLength: 20 },
      ),
      fc.integer({ min: 0, max: 10000 }).map((n) => n / 100),
      fc.constantFrom(...CURRENCY_CODES),
      (lines, rate, currency) => {
        const digits = CURRENCIES[currency].digits;
        const result = totals(lines, { currency, tax_rate: rate });
        const text = (n: number) => String(n);
        const expected = reference(
          lines.map(([q, p]) => [text(q), text(p)]),
          '0',
          text(rate),
          digits,
        );
        assert.equal(result.total, expected);
        assert.equal(
          minorToDecimal(result.total, digits).replace('.', ''),
          expected.toString().padStart(digits + 1, '0'),
        );
      },
    ),
    { seed: 20261122, numRuns: 500 },
  );
});

test("a received document's currency digits: the table's, else ISO 4217's, else 2, never an object's own keys", () => {
  assert.deepEqual(
    ['JPY', 'EUR', 'KWD', 'KRW', 'SEK', 'constructor', 'toString'].map(minorDigitsOf),
    [0, 2, 3, 0, 2, 2, 2],
  );
});
