import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DESIGNS, type Theme } from '../../src/invoice/designFields.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { EXAMPLE_REAL_WORLD_INVOICE } from '../../src/invoice/exampleRealWorld.js';
import { prepareInvoice } from '../../src/invoice/prepareInvoice.js';
import type { InvoiceInput } from '../../src/invoice/schema.js';
import { buildTotalsReport } from '../../src/invoice/totalsReport.js';
import { loadLabelCatalogs } from '../../src/render/labelCatalogs.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { PROJECT_ROOT } from '../../src/render/templates.js';
import { buildInvoiceView } from '../../src/render/viewModel.js';
import { invoiceWithItems } from '../fixtures/invoices.js';
import { QR_INVOICES } from '../../src/invoice/examplePaymentQr.js';
import { normalizeText, pdfInfo, pdfPages } from '../fixtures/pdfTools.js';
import { contentScales } from '../fixtures/pdfScale.js';
import { pdfToPngs, zbarRead } from '../fixtures/qrPages.js';
import { ARABIC_INVOICE, CREDIT_NOTE, GERMAN_MIXED_RATE, JAPANESE_INVOICE } from '../fixtures/realWorldInvoices.js';

/**
 * Every design with the real renderer: what an invoice must show is in the PDF's text whatever the
 * design, theme and language; the real-world example fits one A4 page; no page is printed scaled;
 * "Page X of Y" and the stamp are in the invoice language on every page; the payment QR code
 * still reads; e-mail addresses break only at sensible points.
 */
let renderer: Renderer;
before(async () => {
  renderer = await createRenderer({ poolSize: 1 });
});
after(async () => {
  await renderer.close();
});

const catalogs = loadLabelCatalogs(PROJECT_ROOT);
const render = async (input: InvoiceInput) => (await renderer.renderPdf(prepareInvoice(input))).pdf;

/** A theme sample: none; one that leaves every optional block out; one with the palest colours allowed, other labels and spacing. */
const THEMES: Record<string, Theme | undefined> = {
  'no theme': undefined,
  'bare serif': {
    font: 'Noto Serif',
    density: 'compact',
    show: { logo: false, line_numbers: false, item_codes: false, notes: false },
  },
  'pale accent, comfortable': {
    colors: { accent: '#767676', ink: '#333333', muted: '#767676', rule: '#000000', tint: '#fafafa' },
    density: 'comfortable',
    logo_placement: 'center',
    labels: { invoice: 'Tax invoice', total_due: 'Amount owing' },
  },
};

const LANGUAGES: Record<string, InvoiceInput> = {
  en: { ...CREDIT_NOTE, document_type: 'invoice' },
  de: GERMAN_MIXED_RATE,
  ar: ARABIC_INVOICE,
  ja: JAPANESE_INVOICE,
};

/**
 * Text as Poppler gives it back, for comparing words: bidi controls out, Arabic presentation forms
 * folded (NFKC), and the lam and alef letters dropped, because Poppler writes a lam-alef ligature
 * as alef then lam.
 */
const comparable = (text: string) =>
  normalizeText(text)
    .normalize('NFKC')
    .replace(/[\u0622\u0623\u0625\u0627\u0644]/g, '');

/** What an invoice must show, as the view model prints it: number, dates, parties, VAT ids, every total, the amount due. */
function mustShow(input: InvoiceInput): string[] {
  const view = buildInvoiceView(prepareInvoice(input), catalogs);
  const { totals } = view;
  return [
    view.invoiceNumber,
    view.issueDate,
    view.dueDate,
    view.seller.name,
    view.buyer.name,
    view.seller.vatId,
    view.buyer.vatId,
    totals.subtotal,
    totals.discount,
    totals.taxable,
    ...totals.taxes.map((tax) => tax.amount),
    totals.total,
    totals.amountPaid,
    totals.balanceDue,
  ].filter((value): value is string => value !== null);
}

describe(
  'every design × a sample of themes × four languages shows what an invoice must show',
  { timeout: 600_000 },
  () => {
    for (const design of DESIGNS) {
      for (const [themeName, theme] of Object.entries(THEMES)) {
        test(`${design}, ${themeName}`, async () => {
          for (const [language, base] of Object.entries(LANGUAGES)) {
            const input: InvoiceInput = { ...base, design, ...(theme ? { theme } : {}) };
            const text = comparable(pdfPages(await render(input), 'raw').join('\n'));
            for (const value of mustShow(input)) {
              // Word by word: Poppler gives right-to-left lines back in visual order.
              for (const word of comparable(value).split(' ').filter(Boolean)) {
                assert.ok(
                  text.includes(word),
                  `${design}/${themeName}/${language}: "${word}" of "${value}" is missing from the PDF text`,
                );
              }
            }
          }
        });
      }
    }
  },
);

describe('layout in every design', { timeout: 600_000 }, () => {
  for (const design of DESIGNS) {
    test(`${design}: the real-world example of /v1/schema fits one A4 page, with a logo too`, async () => {
      for (const [name, input] of Object.entries({
        'without a logo': EXAMPLE_REAL_WORLD_INVOICE,
        'with a logo': GERMAN_MIXED_RATE,
      })) {
        const info = pdfInfo(await render({ ...input, design }));
        assert.equal(info.Pages, '1', name);
        assert.match(info['Page size']!, /595\.\d+ x 841\.\d+ pts \(A4\)/);
      }
    });

    test(`${design}: no page is printed scaled, A4 and Letter, one page and many`, async () => {
      const cases: Record<string, InvoiceInput> = {
        'example (Letter)': EXAMPLE_INVOICE,
        'real world (A4)': GERMAN_MIXED_RATE,
        ar: ARABIC_INVOICE,
        ja: JAPANESE_INVOICE,
        'credit note': CREDIT_NOTE,
        'long (A4)': invoiceWithItems(45, { currency: 'EUR' }),
        'long invoice number (Letter)': {
          ...EXAMPLE_INVOICE,
          invoice_number: 'INV-2026-0042-REV-B-'.repeat(3).slice(0, 64),
        },
      };
      for (const [name, input] of Object.entries(cases)) {
        const scales = contentScales(await render({ ...input, design }));
        assert.ok(scales.length > 0, `${name}: page content found`);
        for (const scale of scales)
          assert.ok(Math.abs(scale - 1) < 1e-6, `${name}: a page printed at ${(scale * 100).toFixed(2)} %, not 100 %`);
      }
    });

    test(`${design}: "Page X of Y" from the catalog in the invoice language`, async () => {
      const pages = pdfPages(await render({ ...invoiceWithItems(45, { currency: 'EUR' }), design, locale: 'de-DE' }));
      assert.ok(pages.length >= 2);
      pages.forEach((page, index) =>
        assert.match(normalizeText(page), new RegExp(`Seite ${index + 1} von ${pages.length}`)),
      );
      const english = pdfPages(await render({ ...EXAMPLE_INVOICE, design }));
      assert.match(english[0]!, /Page 1 of 1/);
      const japanese = pdfPages(await render({ ...JAPANESE_INVOICE, design }));
      assert.match(normalizeText(japanese[0]!), /1 \/ 1 ページ/);
    });

    test(`${design}: a stamp in the invoice language on every page`, async () => {
      const pages = pdfPages(
        await render({ ...invoiceWithItems(45, { currency: 'EUR' }), design, locale: 'de-DE', stamp: 'draft' }),
        'raw',
      );
      assert.ok(pages.length >= 2);
      for (const page of pages) assert.match(page, /ENTWURF/);
      const arabic = pdfPages(await render({ ...ARABIC_INVOICE, design, stamp: 'void' }), 'raw');
      // The turned word comes back from Poppler letter by letter, in visual order.
      const letters = arabic.join('').replace(/[^\p{L}]/gu, '');
      assert.ok(
        letters.includes('ملغاة') || letters.includes([...'ملغاة'].reverse().join('')),
        'the Arabic stamp word',
      );
      const unstamped = pdfPages(
        await render({ ...invoiceWithItems(45, { currency: 'EUR' }), design, locale: 'de-DE' }),
        'raw',
      );
      for (const page of unstamped) assert.doesNotMatch(page, /ENTWURF/);
    });

    test(`${design}: the payment QR code reads back as the payload; the Swiss QR-bill keeps its page`, async () => {
      const prepared = prepareInvoice({ ...QR_INVOICES.epc, design });
      const { pdf } = await renderer.renderPdf(prepared);
      assert.equal(zbarRead(pdfToPngs(pdf, 150)[0]!), buildTotalsReport(prepared).payment_qr!.payload);
      const swiss = await render({ ...QR_INVOICES.swiss, design });
      const pages = pdfPages(swiss);
      assert.equal(pages.length, 2);
      assert.match(pages[1]!, /Zahlteil/);
      for (const scale of contentScales(swiss))
        assert.ok(Math.abs(scale - 1) < 1e-6, `the QR-bill page printed at ${scale * 100} %`);
    });

    test(`${design}: an e-mail address breaks only after the @ or a hyphen, or before a dot`, async () => {
      const email = 'accounts.payable.department@northwind-kaffeeroesterei-international.example';
      const raw = pdfPages(
        await render({ ...GERMAN_MIXED_RATE, design, seller: { ...GERMAN_MIXED_RATE.seller, email } }),
        'raw',
      ).join('\n');
      assert.ok(
        raw
          .replace(/([@-])\n/g, '$1')
          .replace(/\n\./g, '.')
          .includes(email),
        `the address is split elsewhere:\n${raw}`,
      );
    });
  }
});
