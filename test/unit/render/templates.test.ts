import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { EXAMPLE_INVOICE } from '../../../src/invoice/example.js';
import { prepareInvoice } from '../../../src/invoice/prepareInvoice.js';
import type { InvoiceInput } from '../../../src/invoice/schema.js';
import { renderInvoiceHtml } from '../../../src/render/invoiceHtml.js';
import {
  loadInvoiceTemplates,
  PROJECT_ROOT,
  SCREEN_OFF_CSS,
  type InvoiceTemplates,
} from '../../../src/render/templates.js';
import { EXTREME_INVOICE, hostileInvoice, UNICODE_INVOICE } from '../../fixtures/invoices.js';
import { QR_INVOICES } from '../../../src/invoice/examplePaymentQr.js';
import { ARABIC_INVOICE, CREDIT_NOTE, GERMAN_MIXED_RATE, JAPANESE_INVOICE } from '../../fixtures/realWorldInvoices.js';

const GOLDEN_DIR = join(PROJECT_ROOT, 'test', 'golden', 'html');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

const templates = loadInvoiceTemplates();
after(() => templates.close());

const {
  notes: _notes,
  payment_instructions: _instructions,
  due_date: _due,
  discount: _discount,
  tax_rate: _tax,
  ...bare
} = EXAMPLE_INVOICE;
const FIXTURES: Record<string, InvoiceInput> = {
  example: EXAMPLE_INVOICE,
  minimal: {
    ...bare,
    seller: { name: 'Solo Trader' },
    buyer: { name: 'A Customer' },
    line_items: [EXAMPLE_INVOICE.line_items[0]!],
  },
  unicode: UNICODE_INVOICE,
  hostile: hostileInvoice('http://127.0.0.1:9'),
  extreme: EXTREME_INVOICE,
  'de-mixed-rate-logo': GERMAN_MIXED_RATE,
  'ar-rtl': ARABIC_INVOICE,
  'ja-jpy': JAPANESE_INVOICE,
  'credit-note': CREDIT_NOTE,
  'usdc-qr': QR_INVOICES.eip681,
};

/** The stylesheets are inlined verbatim; the snapshots are about what the templates fill in. */
const withoutCss = (html: string) => html.replace(/<style>[\s\S]*?<\/style>/, '<style>/* styles/*.css */</style>');

describe('golden HTML (UPDATE_GOLDEN=1 rewrites them)', () => {
  for (const [name, input] of Object.entries(FIXTURES)) {
    test(name, () => {
      const html = withoutCss(renderInvoiceHtml(prepareInvoice(input), templates));
      const file = join(GOLDEN_DIR, `${name}.html`);
      if (UPDATE) writeFileSync(file, html);
      assert.equal(
        html,
        readFileSync(file, 'utf8'),
        `${file} differs; if the change is intended, run with UPDATE_GOLDEN=1`,
      );
    });
  }
});

describe('filled HTML', () => {
  const html = (input: InvoiceInput) => renderInvoiceHtml(prepareInvoice(input), templates);

  test('is one self-contained document: the styles inlined, nothing to load', () => {
    const page = html(EXAMPLE_INVOICE);
    assert.match(page, /^<!doctype html>/);
    assert.match(page, /--accent:/, 'invoice.css is inlined');
    assert.match(page, /break-inside: avoid/, 'print.css is inlined');
    assert.doesNotMatch(page, /<link|<script|<img|<iframe|@import|url\(/i);
    assert.match(page, /<title>Invoice INV-2026-0042<\/title>/);
  });

  test('user text stays text', () => {
    const page = html(hostileInvoice('http://127.0.0.1:9'));
    const body = page.slice(page.indexOf('<body>'));
    assert.doesNotMatch(body, /<(img|link|iframe|style|div style|script|object|svg)\b/i);
    assert.match(body, /&lt;img src&#x3D;http:\/\/127\.0\.0\.1:9\/x&gt;/);
    assert.match(body, /&lt;iframe src&#x3D;file:\/\/\/etc\/passwd&gt;/);
  });

  test('the printed copy differs only by hiding the screen layout Chromium would compute for nothing', () => {
    const view = templates.view(prepareInvoice(EXAMPLE_INVOICE));
    const shown = templates.page(view);
    const printed = templates.printPage(view);
    assert.ok(!shown.includes(SCREEN_OFF_CSS));
    assert.equal(printed.replace(SCREEN_OFF_CSS, ''), shown);
    // The rule sits inside the printed document's one <style>, after the stylesheets, and hides
    // the body on screen only.
    const styles = [...printed.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1]!);
    assert.equal(styles.length, 1);
    assert.match(styles[0]!, /@media screen\s*\{\s*body\s*\{\s*display:\s*none;?\s*\}\s*\}\s*$/);
  });

  test('every combination of payment data fills the page (strict mode: a missing field is an error)', () => {
    const cases: [currency: 'GBP' | 'EUR', payment: Record<string, string>, code: boolean][] = [
      ['GBP', { iban: 'GB82 WEST 1234 5698 7654 32' }, false], // bank details, no scheme for GBP
      ['EUR', { iban: 'GB82 WEST 1234 5698 7654 32' }, true], // EUR + IBAN: EPC
      ['GBP', { account_name: 'A', reference: 'R' }, false],
      ['EUR', { account_name: 'A', reference: 'R' }, false],
      ['EUR', { iban: 'DE89 3704 0044 0532 0130 00', qr: 'none' }, false],
    ];
    for (const [currency, payment, code] of cases) {
      const page = html({ ...EXAMPLE_INVOICE, currency, payment });
      assert.match(page, /class="payment"/);
      assert.equal(/<svg/.test(page), code, `${currency} ${JSON.stringify(payment)}`);
    }
    for (const [scheme, body] of Object.entries(QR_INVOICES)) {
      assert.match(html(body), scheme === 'swiss' ? /class="qr-bill-page"/ : /class="payment__qr"/, scheme);
    }
  });

  test('the discount and taxable lines appear only with a discount', () => {
    assert.match(html(EXAMPLE_INVOICE), /Taxable amount/);
    const page = html({ ...EXAMPLE_INVOICE, discount: 0 });
    assert.doesNotMatch(page, /Discount|Taxable amount/);
  });

  test('the page footer escapes the invoice number; only the page counters are in CSS', () => {
    const page = html({ ...EXAMPLE_INVOICE, invoice_number: 'ZQX<b>"7"</b>' });
    assert.match(
      page,
      /<footer class="page-footer">Invoice <bdi>ZQX&lt;b&gt;&quot;7&quot;&lt;\/b&gt;<\/bdi><\/footer>/,
    );
    assert.match(page, /content: "Page " counter\(page\) " of " counter\(pages\);/);
    const css = page.slice(page.indexOf('<style>'), page.indexOf('</style>'));
    assert.doesNotMatch(css, /ZQX/, 'no invoice number in the stylesheet');
  });
});

describe('template files', () => {
  const files = [
    join(PROJECT_ROOT, 'templates', 'invoice.hbs'),
    ...readdirSync(join(PROJECT_ROOT, 'templates', 'partials')).map((file) =>
      join(PROJECT_ROOT, 'templates', 'partials', file),
    ),
  ];

  for (const file of files) {
    test(`${file.slice(PROJECT_ROOT.length)}: escaping {{ }} only, no values in style, src or href`, () => {
      // Comments may talk about what they forbid.
      const source = readFileSync(file, 'utf8').replace(/\{\{!--[\s\S]*?--\}\}|\{\{![^}]*\}\}/g, '');
      assert.doesNotMatch(source, /\{\{\{|\{\{&/, 'triple-stash or {{& would print user text as HTML');
      // The one exception: the logo's data URI, which the service rebuilds from the checked image
      // bytes (src/invoice/logo.ts), never from request text.
      const withoutLogo = source.replace('src="{{logo.src}}"', '');
      assert.doesNotMatch(withoutLogo, /\b(style|src|href|srcset|data)\s*=\s*["']?[^"'>]*\{\{/i);
      assert.doesNotMatch(source, /<style[^>]*>[^<]*\{\{(?!css\}\})/i, 'no values inside a <style> element');
    });
  }
});

describe('watching', () => {
  test('recompiles on change, and keeps the last good version when an edit breaks a template', async () => {
    const root = mkdtempSync(join(tmpdir(), 'invoice-templates-'));
    let watched: InvoiceTemplates | undefined;
    try {
      cpSync(join(PROJECT_ROOT, 'templates'), join(root, 'templates'), { recursive: true });
      cpSync(join(PROJECT_ROOT, 'styles'), join(root, 'styles'), { recursive: true });
      const events: string[] = [];
      watched = loadInvoiceTemplates({
        root,
        watch: true,
        log: (event) => events.push((event as { event: string }).event),
      });
      const view = watched.view(prepareInvoice(EXAMPLE_INVOICE));
      const notesFile = join(root, 'templates', 'partials', 'notes.hbs');

      writeFileSync(notesFile, `${readFileSync(notesFile, 'utf8')}<p class="edited">edited</p>`);
      await waitFor(() => watched!.page(view).includes('class="edited"'));

      writeFileSync(notesFile, '{{#if notes}}unclosed');
      await waitFor(() => events.includes('templates_reload_failed'));
      assert.ok(watched.page(view).includes('class="edited"'), 'the last good version still serves');
    } finally {
      watched?.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a broken template stops start-up', () => {
    const root = mkdtempSync(join(tmpdir(), 'invoice-templates-'));
    try {
      cpSync(join(PROJECT_ROOT, 'templates'), join(root, 'templates'), { recursive: true });
      cpSync(join(PROJECT_ROOT, 'styles'), join(root, 'styles'), { recursive: true });
      writeFileSync(join(root, 'templates', 'partials', 'notes.hbs'), '{{notez}}');
      assert.throws(() => loadInvoiceTemplates({ root }), /notez/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('so does a broken partial that only some invoices reach (the QR-bill, the VAT breakdown)', () => {
    for (const [partial, broken] of [
      ['swiss-qr-bill.hbs', '{{qrBillFieldThatDoesNotExist}}'],
      ['vat-breakdown.hbs', '{{#each vatRowsThatDoNotExist}}{{/each}}{{vatTypo}}'],
    ] as const) {
      const root = mkdtempSync(join(tmpdir(), 'invoice-templates-'));
      try {
        cpSync(join(PROJECT_ROOT, 'templates'), join(root, 'templates'), { recursive: true });
        cpSync(join(PROJECT_ROOT, 'styles'), join(root, 'styles'), { recursive: true });
        writeFileSync(join(root, 'templates', 'partials', partial), broken);
        assert.throws(() => loadInvoiceTemplates({ root }), /DoesNotExist|vatTypo/, partial);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
