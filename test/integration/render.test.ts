import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CURRENCY_CODES } from '../../src/invoice/currencies.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { prepareInvoice } from '../../src/invoice/prepareInvoice.js';
import { buildTotalsReport } from '../../src/invoice/totalsReport.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import {
  CURRENCY_SIGNS,
  EXTREME_INVOICE,
  invoiceInCurrency,
  invoiceWithItems,
  UNICODE_INVOICE,
} from '../fixtures/invoices.js';
import { familiesCovering, normalizeText, pdfFonts, pdfInfo, pdfPages } from '../fixtures/pdfTools.js';

/** What the invoice renders like, read back with Poppler: pages, text, fonts, metadata. */

let renderer: Renderer;
before(async () => {
  renderer = await createRenderer({ poolSize: 2 });
});
after(async () => {
  await renderer.close();
});

const TABLE_HEADINGS = /#\s+DESCRIPTION\s+QUANTITY\s+UNIT PRICE\s+AMOUNT/;

describe('multi-page invoices', { timeout: 120_000 }, () => {
  for (const [count, minPages, maxPages] of [
    [1, 1, 1],
    [20, 2, 3],
    [200, 8, 14],
  ] as const) {
    test(`${count} line${count > 1 ? 's' : ''}`, async () => {
      const prepared = prepareInvoice(invoiceWithItems(count));
      const report = buildTotalsReport(prepared);
      const { pdf, pages } = await renderer.renderPdf(prepared);

      assert.equal(Number(pdfInfo(pdf).Pages), pages, 'the page count we answer is the real one');
      assert.ok(pages >= minPages && pages <= maxPages, `${pages} pages`);
      const texts = pdfPages(pdf).map(normalizeText);
      assert.equal(texts.length, pages);

      texts.forEach((text, index) => {
        assert.match(text, TABLE_HEADINGS, `table header on page ${index + 1}`);
        assert.match(
          text,
          new RegExp(`Invoice ${report.invoice_number}\\s+Page ${index + 1} of ${pages}\\b`),
          `footer on page ${index + 1}`,
        );
      });

      // Each line exactly once, on one text line with its amount: no row lost or cut in two.
      const textLines = texts.flatMap((text) => text.split('\n'));
      report.lines.forEach((line, index) => {
        const rows = textLines.filter((text) => text.includes(`Line ${index + 1}: `));
        assert.equal(rows.length, 1, `line ${index + 1} appears once`);
        assert.ok(
          rows[0]!.includes(line.amount.formatted),
          `line ${index + 1} is on one row with ${line.amount.formatted}`,
        );
      });

      // The totals: the report's strings, all on the last page, with the last line.
      const last = texts.at(-1)!;
      assert.match(last, new RegExp(`Subtotal\\s+${escape(report.subtotal.formatted)}`));
      assert.match(last, new RegExp(`Discount\\s+−${escape(report.discount.formatted)}`));
      assert.match(last, new RegExp(`Taxable amount\\s+${escape(report.taxable.formatted)}`));
      assert.match(last, new RegExp(`Tax \\(${escape(report.tax_rate)}%\\)\\s+${escape(report.tax.formatted)}`));
      assert.match(last, new RegExp(`Total due USD\\s+${escape(report.total.formatted)}`));
      assert.ok(last.includes(`Line ${count}: `), 'the last line is on the page of the totals');
    });
  }

  test('the totals never open a page without the last lines, whatever the length', async () => {
    // Every length from 6 to 60 lines crosses the first three page breaks on Letter.
    const counts = Array.from({ length: 55 }, (_, index) => 6 + index);
    const stranded: string[] = [];
    const pageCounts = new Set<number>();
    for (let start = 0; start < counts.length; start += 2) {
      const batch = counts.slice(start, start + 2);
      const results = await Promise.all(
        batch.map((count) => renderer.renderPdf(prepareInvoice(invoiceWithItems(count)))),
      );
      results.forEach(({ pdf, pages }, index) => {
        const count = batch[index]!;
        pageCounts.add(pages);
        const texts = pdfPages(pdf);
        const totalsPage = texts.findIndex((text) => text.includes('Total due'));
        const pageOf = (line: number) => texts.findIndex((text) => text.includes(`Line ${line}: `));
        const together = [count, count - 1, count - 2].every((line) => pageOf(line) === totalsPage);
        if (!together || !texts[totalsPage]!.includes('Subtotal'))
          stranded.push(`${count} lines (${texts.length} pages)`);
      });
    }
    assert.deepEqual(stranded, []);
    assert.ok(pageCounts.size >= 3, `the lengths cross page breaks (page counts: ${[...pageCounts].join(', ')})`);
  });
});

describe('currencies', { timeout: 120_000 }, () => {
  const stack = ['Noto Sans', 'Noto Sans CJK JP', 'IPAGothic', 'DejaVu Sans'];

  for (const currency of CURRENCY_CODES) {
    test(`${currency} prints its sign with a real glyph, on ${['USD', 'CAD', 'MXN'].includes(currency) ? 'Letter' : 'A4'}`, async () => {
      const prepared = prepareInvoice(invoiceInCurrency(currency));
      const report = buildTotalsReport(prepared);
      const { pdf } = await renderer.renderPdf(prepared);
      const text = normalizeText(pdfPages(pdf).join('\n'));
      for (const amount of [
        report.lines[0]!.unit_price.formatted,
        report.lines[0]!.amount.formatted,
        report.tax.formatted,
        report.total.formatted,
      ]) {
        assert.ok(text.includes(normalizeText(amount)), `${amount} in the text`);
      }
      const sign = CURRENCY_SIGNS[currency];
      assert.ok(report.total.formatted.includes(sign));
      // Missing glyphs would come from no installed font: every font is embedded and maps to
      // Unicode, and a font of our CSS stack has each character of the sign.
      const fonts = pdfFonts(pdf);
      assert.ok(fonts.length > 0);
      assert.deepEqual(
        fonts.filter((font) => !font.embedded || !font.unicode),
        [],
      );
      for (const char of sign) {
        assert.ok(
          familiesCovering(char).some((family) => stack.includes(family)),
          `a stack font has ${char}`,
        );
      }
      assert.match(pdfInfo(pdf)['Page size']!, ['USD', 'CAD', 'MXN'].includes(currency) ? /\(letter\)/ : /\(A4\)/);
    });
  }

  test('JPY: the fullwidth ￥ (which Noto Sans lacks) is in the text', async () => {
    const { pdf } = await renderer.renderPdf(prepareInvoice(invoiceInCurrency('JPY')));
    assert.ok(pdfPages(pdf).join('').includes('￥1,234,568'));
  });
});

describe('Unicode text', { timeout: 60_000 }, () => {
  test('every script comes through, and a 200-character word wraps instead of running off the page', async () => {
    const { pdf, pages } = await renderer.renderPdf(prepareInvoice(UNICODE_INVOICE));
    assert.equal(pages, 1);
    const text = normalizeText(pdfPages(pdf).join('\n'));
    for (const expected of [
      '株式会社サンプル商事',
      '東京都千代田区丸の内1-1-1',
      'Crème brûlée',
      'Łódź',
      '中文说明：软件开发服务',
      '한국어 번역 서비스',
      'شركة المثال للتجارة',
      '￥225,501',
    ]) {
      assert.ok(text.includes(expected), expected);
    }
    assert.ok(/ייעוץ משפטי/.test(text) || /יטפשמ ץועיי/.test(text), 'Hebrew, in either order');
    // Layout mode keeps the description column's continuation lines apart from the other cells.
    const wrapped = pdfPages(pdf)[0]!
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^[A-J]+$/.test(line));
    assert.ok(wrapped.length > 1, 'the long word is wrapped');
    assert.equal(wrapped.join(''), 'ABCDEFGHIJ'.repeat(20), 'and nothing of it is lost');
    const raw = pdfPages(pdf, 'raw').join('\n').replace(/\s+/g, '');
    assert.ok(
      raw.includes(
        'https://pay.example/very/long/path/that/does/not/contain/any/spaces/at/all/and/keeps/going/on/and/on',
      ),
    );
    assert.deepEqual(
      pdfFonts(pdf).filter((font) => !font.embedded),
      [],
    );
  });
});

describe('extremes', { timeout: 60_000 }, () => {
  test('the longest texts wrap and the largest amounts print whole, never clipped at the margin', async () => {
    const prepared = prepareInvoice(EXTREME_INVOICE);
    const report = buildTotalsReport(prepared);
    const { pdf, pages } = await renderer.renderPdf(prepared);
    const texts = pdfPages(pdf).map(normalizeText);
    assert.equal(texts.length, pages);
    const all = texts.join('\n');
    for (const money of [
      report.subtotal,
      report.discount,
      report.taxable,
      report.tax,
      report.total,
      ...report.lines.map((line) => line.amount),
    ]) {
      assert.ok(all.includes(normalizeText(money.formatted)), `${money.formatted} whole`);
    }
    texts.forEach((text, index) => assert.match(text, new RegExp(`Invoice N{64}\\s+Page ${index + 1} of ${pages}`)));
    const compact = pdfPages(pdf, 'raw').join('').replace(/\s+/g, '');
    assert.ok(
      compact.includes('W'.repeat(300)) && compact.includes('P'.repeat(1000)),
      'unbroken text is wrapped, not cut',
    );
  });
});

describe('document metadata', { timeout: 60_000 }, () => {
  test('title, author and creation date come from the invoice', async () => {
    const info = pdfInfo((await renderer.renderPdf(prepareInvoice(EXAMPLE_INVOICE))).pdf);
    assert.equal(info.Title, 'Invoice INV-2026-0042');
    assert.equal(info.Author, 'Northwind Studio GmbH');
    assert.match(info.CreationDate!, /^2026-11-02T00:00:00/);
    assert.match(info.ModDate!, /^2026-11-02T00:00:00/);
    assert.equal(info.Tagged, 'no');
  });

  test('non-Latin title and author survive', async () => {
    const info = pdfInfo((await renderer.renderPdf(prepareInvoice(UNICODE_INVOICE))).pdf);
    assert.equal(info.Title, 'Invoice 請求-2026-0007');
    assert.equal(info.Author, '株式会社サンプル商事');
    assert.match(info.CreationDate!, /^2026-03-15T00:00:00/);
  });
});

describe('determinism', { timeout: 60_000 }, () => {
  test('the same request renders the same bytes', async () => {
    for (const input of [EXAMPLE_INVOICE, invoiceWithItems(200), UNICODE_INVOICE]) {
      // Concurrently, so the two renders run on different pages of the pool.
      const [first, second] = await Promise.all([
        renderer.renderPdf(prepareInvoice(input)),
        renderer.renderPdf(prepareInvoice(input)),
      ]);
      assert.equal(first.pages, second.pages);
      assert.deepEqual(pdfPages(first.pdf), pdfPages(second.pdf));
      assert.ok(first.pdf.equals(second.pdf), 'byte-identical');
    }
  });
});

describe('stats', () => {
  test('count renders and report a live browser, whatever ran before', { timeout: 60_000 }, async () => {
    const earlier = renderer.stats();
    await renderer.renderPdf(prepareInvoice(EXAMPLE_INVOICE));
    await assert.rejects(renderer.renderPdf(prepareInvoice(invoiceWithItems(200)), { timeoutMs: 1 }), /within 1 ms/);
    const stats = renderer.stats();
    assert.equal(stats.browserConnected, true);
    assert.equal(typeof stats.browserPid, 'number');
    assert.equal(stats.browserPid, renderer.browserPid());
    assert.equal(stats.renders - earlier.renders, 1);
    assert.equal(stats.failures - earlier.failures, 1);
    assert.equal(stats.restarts, earlier.restarts, 'a timed-out render costs its page, not the browser');
    assert.equal(renderer.ready(), true);
  });
});

function escape(text: string): string {
  return normalizeText(text).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
