import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EXAMPLE_INVOICE } from '../../../src/invoice/example.js';
import { prepareInvoice } from '../../../src/invoice/prepareInvoice.js';
import { buildTotalsReport } from '../../../src/invoice/totalsReport.js';

// Found by the reliability fuzz (test/reliability/fuzz.test.ts): a valid unit price with more
// decimals than Intl.NumberFormat can show made validate, the timesheet helper and the paid
// render fail with a 500 / 502.
test('unit prices with more decimals than Intl can show are displayed rounded, and kept exact in decimal', () => {
  for (const [price, decimalStart, formatted] of [
    [5e-324, '0.0000000000', '$0.00000000000000000000'],
    [1.9427366688369514e-7, '0.00000019427366688369514', '$0.00000019427366688370'],
    [0.125, '0.125', '$0.125'],
  ] as const) {
    const invoice = {
      ...EXAMPLE_INVOICE,
      discount: 0,
      line_items: [{ description: 'tiny', quantity: 1, unit_price: price }],
    };
    const [line] = buildTotalsReport(prepareInvoice(invoice)).lines;
    assert.ok(line!.unit_price.decimal.startsWith(decimalStart), line!.unit_price.decimal);
    assert.equal(line!.unit_price.formatted, formatted);
  }
});
