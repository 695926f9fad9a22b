import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { prepareInvoice } from '../../../src/invoice/prepareInvoice.js';
import { buildTotalsReport } from '../../../src/invoice/totalsReport.js';
import { invoiceArbitrary } from '../../fixtures/invoiceArbitrary.js';

/**
 * VAT per rate (docs/invoice.md, Totals), computed here a second way: numbers as fractions
 * (numerator/denominator bigints read from their decimal text), the discount shares from exact
 * fractional parts compared as fractions. Nothing is shared with src/invoice.
 */
interface Fraction {
  n: bigint;
  d: bigint;
}

function fractionOf(value: number): Fraction {
  const [whole, fraction = ''] = String(value).split('.');
  assert.ok(!String(value).includes('e'), `generator made an exponent: ${value}`);
  return { n: BigInt(`${whole}${fraction}`), d: 10n ** BigInt(fraction.length) };
}

/** Rounds a non-negative fraction to an integer, halves up (= away from zero here). */
const roundHalfUp = ({ n, d }: Fraction): bigint => (2n * n + d) / (2n * d);

function expected(invoice: ReturnType<typeof prepareInvoice>['invoice']) {
  const scale = invoice.currency === 'JPY' ? 1n : 100n;
  const toMinor = (value: number | undefined) => {
    const f = fractionOf(value ?? 0);
    return roundHalfUp({ n: f.n * scale, d: f.d });
  };
  const groups: { key: string; rate: Fraction; net: bigint }[] = [];
  for (const line of invoice.line_items) {
    const q = fractionOf(line.quantity);
    const p = fractionOf(line.unit_price);
    const amount = roundHalfUp({ n: q.n * p.n * scale, d: q.d * p.d });
    const rateValue = line.tax_rate ?? invoice.tax_rate ?? 0;
    const rate = fractionOf(rateValue);
    const key = `${line.tax_category ?? (rateValue > 0 ? 'S' : 'Z')}/${rate.n * (10n ** 12n / rate.d)}`;
    const group = groups.find((g) => g.key === key);
    if (group) group.net += amount;
    else groups.push({ key, rate, net: amount });
  }
  const subtotal = groups.reduce((s, g) => s + g.net, 0n);
  const discount = toMinor(invoice.discount);
  // Exact share D·net/subtotal as a whole part and a fractional part (numerator over subtotal).
  const exact = groups.map((g, at) => ({
    at,
    whole: subtotal === 0n ? 0n : (discount * g.net) / subtotal,
    frac: subtotal === 0n ? 0n : discount * g.net - ((discount * g.net) / subtotal) * subtotal,
  }));
  let left = discount - exact.reduce((s, e) => s + e.whole, 0n);
  const byFraction = [...exact].sort((a, b) => (b.frac > a.frac ? 1 : b.frac < a.frac ? -1 : a.at - b.at));
  const shares = exact.map((e) => e.whole);
  for (const e of byFraction) {
    if (left <= 0n) break;
    shares[e.at]! += 1n;
    left -= 1n;
  }
  const rows = groups.map((g, at) => {
    const taxable = g.net - shares[at]!;
    return {
      net: g.net,
      discount: shares[at]!,
      taxable,
      tax: roundHalfUp({ n: taxable * g.rate.n, d: g.rate.d * 100n }),
    };
  });
  const tax = rows.reduce((s, r) => s + r.tax, 0n);
  const total = subtotal - discount + tax;
  return { rows, subtotal, discount, tax, total, balance: total - toMinor(invoice.amount_paid) };
}

test('VAT groups, discount shares, tax and balance equal an independent exact computation (fast-check, 600 runs, seed 16)', () => {
  let ties = 0;
  fc.assert(
    fc.property(invoiceArbitrary(), (body) => {
      const prepared = prepareInvoice(body);
      const report = buildTotalsReport(prepared);
      const want = expected(prepared.invoice);
      assert.deepEqual(
        report.tax_groups.map((g) => ({
          net: BigInt(g.net.minor),
          discount: BigInt(g.discount.minor),
          taxable: BigInt(g.taxable.minor),
          tax: BigInt(g.tax.minor),
        })),
        want.rows,
      );
      assert.equal(BigInt(report.subtotal.minor), want.subtotal);
      assert.equal(BigInt(report.discount.minor), want.discount);
      assert.equal(BigInt(report.tax.minor), want.tax);
      assert.equal(BigInt(report.total.minor), want.total);
      assert.equal(BigInt(report.balance_due.minor), want.balance);
      // Shares always add up to the discount.
      assert.equal(
        report.tax_groups.reduce((s, g) => s + BigInt(g.discount.minor), 0n),
        want.discount,
      );
      const nets = report.tax_groups.map((g) => g.net.minor);
      if (want.discount > 0n && new Set(nets).size < nets.length) ties += 1;
    }),
    { seed: 16, numRuns: 600 },
  );
  assert.ok(ties >= 20, `only ${ties} runs had groups with equal nets and a discount; the tie rule went untested`);
});

test('the tie rule by example: equal remainders go to the earlier group', () => {
  // Three groups of 1.00 each, discount 0.01 → the first group takes the cent; 0.02 → first two.
  const body = (discount: number) => ({
    seller: { name: 'S' },
    buyer: { name: 'B' },
    invoice_number: '1',
    issue_date: '2026-01-01',
    currency: 'EUR' as const,
    discount,
    line_items: [19, 7, 0].map((rate) => ({ description: `r${rate}`, quantity: 1, unit_price: 1, tax_rate: rate })),
  });
  assert.deepEqual(
    buildTotalsReport(prepareInvoice(body(0.01))).tax_groups.map((g) => g.discount.minor),
    [1, 0, 0],
  );
  assert.deepEqual(
    buildTotalsReport(prepareInvoice(body(0.02))).tax_groups.map((g) => g.discount.minor),
    [1, 1, 0],
  );
  // Unequal nets: 0.04 over nets 3.00 / 1.00 / 1.00 → exact 2.4 / 0.8 / 0.8 → 2 + 0 + 0, and the two
  // cents left go to the largest remainders (0.8 each), not to the first group.
  const uneven = {
    ...body(0.04),
    line_items: [{ description: 'a', quantity: 3, unit_price: 1, tax_rate: 19 }, ...body(0).line_items.slice(1)],
  };
  assert.deepEqual(
    buildTotalsReport(prepareInvoice(uneven)).tax_groups.map((g) => g.discount.minor),
    [2, 1, 1],
  );
});
