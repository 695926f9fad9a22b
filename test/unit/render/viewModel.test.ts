import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EXAMPLE_INVOICE } from '../../../src/invoice/example.js';
import { prepareInvoice } from '../../../src/invoice/prepareInvoice.js';
import { buildTotalsReport } from '../../../src/invoice/totalsReport.js';
import { loadLabelCatalogs } from '../../../src/render/labelCatalogs.js';
import { PROJECT_ROOT } from '../../../src/render/templates.js';
import { buildInvoiceView as buildWith, formatDate, LINES_KEPT_WITH_TOTALS } from '../../../src/render/viewModel.js';
import { invoiceWithItems, UNICODE_INVOICE } from '../../fixtures/invoices.js';
import { QR_INVOICES } from '../../../src/invoice/examplePaymentQr.js';

const catalogs = loadLabelCatalogs(PROJECT_ROOT);
const buildInvoiceView = (prepared: Parameters<typeof buildWith>[0]) => buildWith(prepared, catalogs);

describe('buildInvoiceView', () => {
  test('prints the totals report strings, never its own', () => {
    const prepared = prepareInvoice(EXAMPLE_INVOICE);
    const report = buildTotalsReport(prepared);
    const view = buildInvoiceView(prepared);
    const lines = [...view.lines, ...view.tailLines];
    assert.deepEqual(
      lines.map((line) => [line.description, line.quantity, line.unitPrice, line.amount]),
      report.lines.map((line) => [line.description, line.quantity, line.unit_price.formatted, line.amount.formatted]),
    );
    assert.deepEqual(view.totals, {
      subtotal: report.subtotal.formatted,
      discount: report.discount.formatted,
      taxable: report.taxable.formatted,
      taxes: [{ label: 'Tax (7.5%)', amount: report.tax.formatted }],
      totalLabel: 'Total due',
      total: report.total.formatted,
      amountPaid: null,
      balanceDue: null,
    });
    assert.equal(view.totals.total, '$10,803.74');
  });

  test('header fields', () => {
    const view = buildInvoiceView(prepareInvoice(EXAMPLE_INVOICE));
    assert.equal(view.title, 'Invoice INV-2026-0042');
    assert.equal(view.invoiceNumber, 'INV-2026-0042');
    assert.equal(view.issueDate, '2 November 2026');
    assert.equal(view.dueDate, '2 December 2026');
    assert.equal(view.currency, 'USD');
    assert.equal(view.seller.address, 'Torstraße 12\n10119 Berlin\nGermany', 'line breaks are kept for the template');
    assert.equal(view.seller.taxId, 'DE123456789');
    assert.equal(view.buyer.phone, null);
  });

  test('no discount: neither discount nor a taxable line that would repeat the subtotal', () => {
    const view = buildInvoiceView(prepareInvoice({ ...EXAMPLE_INVOICE, discount: 0 }));
    assert.equal(view.totals.discount, null);
    assert.equal(view.totals.taxable, null);
    const none = buildInvoiceView(prepareInvoice({ ...EXAMPLE_INVOICE, discount: undefined, tax_rate: undefined }));
    assert.equal(none.totals.discount, null);
    assert.deepEqual(
      none.totals.taxes.map((tax) => tax.label),
      ['Tax (0%)'],
    );
  });

  test('absent and blank optional text is null, so the template prints no empty label', () => {
    const { due_date: _due, notes: _notes, ...rest } = EXAMPLE_INVOICE;
    const view = buildInvoiceView(
      prepareInvoice({ ...rest, payment_instructions: '  \n ', buyer: { name: 'B', email: undefined } }),
    );
    assert.equal(view.dueDate, null);
    assert.equal(view.notes, null);
    assert.equal(view.paymentInstructions, null);
    assert.deepEqual(view.buyer, {
      lang: '',
      name: 'B',
      address: null,
      contactName: null,
      email: null,
      emailParts: null,
      phone: null,
      vatId: null,
      taxId: null,
      taxRegistration: null,
    });
  });

  const splits: [number, number, number][] = [
    [1, 0, 1],
    [3, 0, 3],
    [4, 1, 3],
    [200, 197, 3],
  ];
  for (const [count, body, tail] of splits) {
    test(`${count} lines: the last ${tail} travel with the totals`, () => {
      const view = buildInvoiceView(prepareInvoice(invoiceWithItems(count)));
      assert.equal(view.lines.length, body);
      assert.equal(view.tailLines.length, tail);
      assert.ok(tail <= LINES_KEPT_WITH_TOTALS);
      assert.deepEqual(
        [...view.lines, ...view.tailLines].map((line) => line.number),
        Array.from({ length: count }, (_, index) => index + 1),
      );
    });
  }

  test('lang marks CJK user text, and is "" (unknown) otherwise', () => {
    const view = buildInvoiceView(prepareInvoice(UNICODE_INVOICE));
    assert.equal(view.seller.lang, 'ja');
    assert.equal(view.buyer.lang, '');
    const langs = [...view.lines, ...view.tailLines].map((line) => line.lang);
    assert.deepEqual(langs, ['', 'ja', 'ko', '', '', '']);
    assert.equal(view.notes?.lang, 'ja');
  });
});

test('formatDate reads the same everywhere and ignores the time zone', () => {
  assert.equal(formatDate('2026-01-01'), '1 January 2026');
  assert.equal(formatDate('2028-02-29'), '29 February 2028');
});

test('the Swiss QR-bill speaks the invoice language: German with locale de-CH, English without a locale (the labels stay English then)', () => {
  const { locale: _locale, ...withoutLocale } = QR_INVOICES.swiss;
  const german = buildInvoiceView(prepareInvoice(QR_INVOICES.swiss));
  const english = buildInvoiceView(prepareInvoice(withoutLocale));
  assert.equal(german.swissQrBill?.lang, 'de');
  assert.equal(english.swissQrBill?.lang, 'en');
});
