import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InputRejected } from '../../../src/errors.js';
import { EXAMPLE_INVOICE } from '../../../src/invoice/example.js';
import { EXAMPLE_REAL_WORLD_INVOICE } from '../../../src/invoice/exampleRealWorld.js';
import { prepareInvoice } from '../../../src/invoice/prepareInvoice.js';
import { buildTotalsReport } from '../../../src/invoice/totalsReport.js';
import { logoDataUri, logoPng } from '../../fixtures/realWorldInvoices.js';

/** The error a body gets: code and every issue's path and code. */
function rejection(body: unknown): { code: string; issues: string[] } {
  try {
    prepareInvoice(body);
  } catch (error) {
    assert.ok(error instanceof InputRejected, `expected rejected input (a 400), got ${String(error)}`);
    return { code: error.code, issues: (error.issues ?? []).map((issue) => `${issue.path} ${issue.code}`) };
  }
  assert.fail('the body was accepted');
}

const base = EXAMPLE_INVOICE;
const line = base.line_items[0];
const pngWithSize = (width: number, height: number) => {
  const png = logoPng(2, 2);
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  return png;
};

describe('the real-world fields refuse bad input with every issue and its path', () => {
  const cases: [string, unknown, string, string[]][] = [
    ['unknown locale', { ...base, locale: 'ru-RU' }, 'validation_failed', ['locale invalid_value']],
    ['malformed locale', { ...base, locale: 'de_DE!' }, 'validation_failed', ['locale invalid_value']],
    [
      'unknown label key',
      { ...base, labels: { invoicee: 'x' } },
      'validation_failed',
      ['labels.invoicee unknown_property'],
    ],
    [
      'page_of cannot be replaced (it is printed from CSS)',
      { ...base, labels: { page_of: 'x {page} {pages}' } },
      'validation_failed',
      ['labels.page_of unknown_property'],
    ],
    [
      'S with a rate of 0',
      { ...base, tax_rate: undefined, line_items: [{ ...line, tax_category: 'S' }] },
      'validation_failed',
      ['line_items[0].tax_category category_rate_mismatch'],
    ],
    [
      'Z with 5 %',
      { ...base, line_items: [{ ...line, tax_category: 'Z', tax_rate: 5 }] },
      'validation_failed',
      ['line_items[0].tax_category category_rate_mismatch'],
    ],
    [
      "E under the invoice's 7.5 %",
      { ...base, line_items: [line, { ...line, tax_category: 'E' }] },
      'validation_failed',
      ['line_items[1].tax_category category_rate_mismatch'],
    ],
    [
      'unknown category',
      { ...base, line_items: [{ ...line, tax_category: 'X' }] },
      'validation_failed',
      ['line_items[0].tax_category invalid_value'],
    ],
    [
      'amount paid above the total',
      { ...base, amount_paid: 10803.75 },
      'amount_paid_exceeds_total',
      ['amount_paid amount_paid_exceeds_total'],
    ],
    [
      'a rounding that makes the amount due negative',
      { ...base, amount_paid: 10803.74, rounding_amount: -0.02 },
      'rounding_makes_due_negative',
      ['rounding_amount rounding_makes_due_negative'],
    ],
    ['a rounding of more than 1', { ...base, rounding_amount: 1.5 }, 'validation_failed', ['rounding_amount too_big']],
    [
      'SVG logo by its label',
      { ...base, logo: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=' },
      'validation_failed',
      ['logo invalid_format'],
    ],
    [
      'SVG bytes labelled PNG',
      {
        ...base,
        logo: `data:image/png;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>').toString('base64')}`,
      },
      'validation_failed',
      ['logo invalid_logo'],
    ],
    [
      'a logo over 256 KiB',
      { ...base, logo: logoDataUri(Buffer.concat([logoPng(2, 2), Buffer.alloc(256 * 1024)])) },
      'validation_failed',
      ['logo too_long'],
    ],
    [
      'a logo of absurd dimensions',
      { ...base, logo: logoDataUri(pngWithSize(100_000, 10)) },
      'validation_failed',
      ['logo invalid_logo'],
    ],
    [
      'a logo that is not a data URI',
      { ...base, logo: 'https://example.com/logo.png' },
      'validation_failed',
      ['logo invalid_format'],
    ],
    ['accent not #RRGGBB', { ...base, accent_color: 'red' }, 'validation_failed', ['accent_color invalid_format']],
    [
      'accent with CSS in it',
      { ...base, accent_color: '#fff;}*{x' },
      'validation_failed',
      ['accent_color invalid_format'],
    ],
    [
      'invalid country',
      { ...base, seller: { ...base.seller, country: 'XX' }, buyer: { ...base.buyer, country: 'de' } },
      'validation_failed',
      ['seller.country invalid_value', 'buyer.country invalid_value'],
    ],
    [
      'custom fields beyond 10',
      { ...base, custom_fields: Array.from({ length: 11 }, (_, at) => ({ label: `L${at}`, value: 'v' })) },
      'validation_failed',
      ['custom_fields too_long'],
    ],
    [
      'an exemption reason without exempt lines',
      { ...base, tax_exemption_reason: 'Reverse charge' },
      'validation_failed',
      ['tax_exemption_reason not_applicable'],
    ],
    [
      'unit code not of Rec 20 shape',
      { ...base, line_items: [{ ...line, unit: 'hours' }] },
      'validation_failed',
      ['line_items[0].unit invalid_format'],
    ],
    [
      'VAT id without a country prefix',
      { ...base, seller: { ...base.seller, vat_id: '123456789' } },
      'validation_failed',
      ['seller.vat_id invalid_format'],
    ],
    [
      'unknown document type',
      { ...base, document_type: 'receipt' },
      'validation_failed',
      ['document_type invalid_value'],
    ],
    [
      'several at once',
      { ...base, locale: 'xx', accent_color: '#12', line_items: [{ ...line, tax_category: 'Z' }] },
      'validation_failed',
      ['locale invalid_value', 'accent_color invalid_format'],
    ],
  ];
  for (const [name, body, code, issues] of cases) {
    test(name, () => {
      const got = rejection(body);
      assert.equal(got.code, code);
      assert.deepEqual(got.issues, issues);
    });
  }
});

describe('the real-world example', () => {
  test('validate answers the VAT groups, the discount shares and the balance due', () => {
    const report = buildTotalsReport(prepareInvoice(EXAMPLE_REAL_WORLD_INVOICE));
    assert.deepEqual(
      report.tax_groups.map((group) => [
        group.category,
        group.rate,
        group.net.decimal,
        group.discount.decimal,
        group.taxable.decimal,
        group.tax.decimal,
      ]),
      [
        // nets 4397.50 and 564.70 of 4962.20: shares 132.93 and 17.07 (exact 132.929… and 17.070…).
        ['S', '19', '4397.50', '132.93', '4264.57', '810.27'],
        ['S', '7', '564.70', '17.07', '547.63', '38.33'],
      ],
    );
    assert.equal(report.total.formatted, '5.660,80\u00a0€');
    assert.equal(report.amount_paid.decimal, '1000.00');
    assert.equal(report.balance_due.formatted, '4.660,80\u00a0€');
    assert.equal(report.currency.locale, 'de-DE');
    assert.deepEqual(report.locale, { tag: 'de-DE', language: 'de', direction: 'ltr' });
  });

  test('a JPEG logo is accepted and measured from its frame header', () => {
    // SOI, APP0 (length 16), SOF0 with 64 × 32, EOI.
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xc0, 0, 11, 8, 0, 32,
      0, 64, 1, 1, 0x11, 0, 0xff, 0xd9,
    ]);
    const prepared = prepareInvoice({ ...base, logo: `data:image/jpeg;base64,${jpeg.toString('base64')}` });
    assert.deepEqual(
      { ...prepared.logo, dataUri: undefined },
      { mimeType: 'image/jpeg', width: 64, height: 32, dataUri: undefined },
    );
  });

  test('SPEC requests answer what they answered before, plus one VAT group', () => {
    const report = buildTotalsReport(prepareInvoice(EXAMPLE_INVOICE));
    assert.equal(report.total.formatted, '$10,803.74');
    assert.equal(report.currency.locale, 'en-US');
    assert.deepEqual(
      report.tax_groups.map((group) => [group.category, group.rate, group.tax.minor]),
      [['S', '7.5', report.tax.minor]],
    );
    assert.equal(report.balance_due.minor, report.total.minor);
  });
});

test('rounding_amount (BT-114) is added to the amount due, after the amount paid', () => {
  const body = { ...EXAMPLE_REAL_WORLD_INVOICE, amount_paid: 800, rounding_amount: -0.03 };
  const report = buildTotalsReport(prepareInvoice(body));
  assert.equal(report.rounding?.decimal, '-0.03');
  const due = Math.round((Number(report.total.decimal) - 800 - 0.03) * 100) / 100;
  assert.equal(Number(report.balance_due.decimal), due);
  // Without it, the answer has no rounding at all (a request valid before reads as before).
  assert.equal(buildTotalsReport(prepareInvoice(EXAMPLE_REAL_WORLD_INVOICE)).rounding, undefined);
});
