import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { LABEL_KEYS } from '../../../src/invoice/labelKeys.js';
import { LANGUAGES } from '../../../src/invoice/locales.js';
import { invoiceCss, pageOfContent } from '../../../src/render/invoiceCss.js';
import { loadLabelCatalogs } from '../../../src/render/labelCatalogs.js';
import { PROJECT_ROOT } from '../../../src/render/templates.js';

/** The placeholders a label must carry (and no other label may). */
const PLACEHOLDERS: Record<string, string[]> = {
  page_of: ['{page}', '{pages}'].sort(),
  tax_currency_total: ['{currency}'],
  // Notes on a received file (einvoice/inbound/fileDocuments.ts InboundNote).
  inbound_note_unknown_specification: ['{id}'],
  inbound_note_signed: ['{signers}'],
  inbound_note_documents_printed: ['{count}'],
  inbound_note_document_of: ['{count}', '{number}'].sort(),
  inbound_note_document_totals: ['{fields}', '{invoice}', '{number}'].sort(),
  // A FatturaPA body's number at its notes (render/inbound/inboundExtras.ts).
  inbound_document_number: ['{number}'],
};

const catalogFile = (root: string, language: string) => join(root, 'templates', 'locales', `${language}.json`);

describe('label catalogs (templates/locales)', () => {
  for (const language of LANGUAGES) {
    test(`${language}.json has exactly the label keys, each a non-empty text, with en.json's placeholders`, () => {
      const catalog = JSON.parse(readFileSync(catalogFile(PROJECT_ROOT, language), 'utf8')) as Record<string, string>;
      assert.deepEqual(Object.keys(catalog).sort(), [...LABEL_KEYS].sort());
      for (const [key, value] of Object.entries(catalog)) {
        assert.equal(typeof value, 'string', key);
        assert.equal(value, value.trim(), `${language}.${key} has leading or trailing space`);
        assert.ok(value.length > 0, `${language}.${key} is empty`);
        assert.deepEqual(
          value.match(/\{\w+\}/g)?.sort() ?? [],
          PLACEHOLDERS[key] ?? [],
          `${language}.${key} placeholders`,
        );
      }
    });
  }

  test('the invoice word of each language is the business term, not a word-by-word translation', () => {
    const catalogs = loadLabelCatalogs(PROJECT_ROOT);
    const invoice = Object.fromEntries(LANGUAGES.map((language) => [language, catalogs[language].invoice]));
    assert.deepEqual(invoice, {
      en: 'Invoice',
      de: 'Rechnung',
      fr: 'Facture',
      es: 'Factura',
      it: 'Fattura',
      nl: 'Factuur',
      pt: 'Fatura',
      pl: 'Faktura',
      sv: 'Faktura',
      hr: 'Račun',
      ja: '請求書',
      zh: '发票',
      ar: 'فاتورة',
      he: 'חשבונית',
      hi: 'चालान',
    });
  });

  for (const [breakage, edit] of [
    ['a missing key', (catalog: Record<string, string>) => delete catalog.subtotal],
    ['an unknown key', (catalog: Record<string, string>) => (catalog.subtotall = 'x')],
    ['page_of without {pages}', (catalog: Record<string, string>) => (catalog.page_of = 'Seite {page}')],
    [
      'tax_currency_total without {currency}',
      (catalog: Record<string, string>) => (catalog.tax_currency_total = 'Steuerbetrag'),
    ],
  ] as const) {
    test(`${breakage} stops the load, naming the file and the key`, () => {
      const root = mkdtempSync(join(tmpdir(), 'catalogs-'));
      try {
        cpSync(join(PROJECT_ROOT, 'templates', 'locales'), join(root, 'templates', 'locales'), { recursive: true });
        const catalog = JSON.parse(readFileSync(catalogFile(root, 'de'), 'utf8')) as Record<string, string>;
        edit(catalog);
        writeFileSync(catalogFile(root, 'de'), JSON.stringify(catalog));
        assert.throws(() => loadLabelCatalogs(root), /de\.json: .*(subtotal|page_of|tax_currency_total)/);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  }
});

describe('per-invoice CSS (src/render/invoiceCss.ts)', () => {
  const catalogs = loadLabelCatalogs(PROJECT_ROOT);
  test('an English invoice in the design colour: only "Page X of Y", from the catalog (print.css has no words)', () => {
    assert.match(
      invoiceCss({ accent: null, dir: null, lang: 'en', labels: catalogs.en }),
      /^\n\/\* This invoice \(src\/render\/invoiceCss.ts\). \*\/\n@page \{ @bottom-right \{ content: "Page " counter\(page\) " of " counter\(pages\); \} \}\n$/,
    );
    assert.doesNotMatch(invoiceCss({ accent: null, dir: null, lang: 'en', labels: catalogs.en }), /--accent/);
  });
  test('the accent replaces --accent; only #rrggbb is accepted', () => {
    assert.match(
      invoiceCss({ accent: '#8a3b12', dir: null, lang: 'en', labels: catalogs.en }),
      /:root \{ --accent: #8a3b12; \}/,
    );
    assert.throws(() => invoiceCss({ accent: 'red;} body{display:none', dir: null, lang: 'en', labels: catalogs.en }));
  });
  test('"Page X of Y" in the language, every character outside letters, digits and spaces escaped', () => {
    assert.equal(pageOfContent('Seite {page} von {pages}'), '"Seite " counter(page) " von " counter(pages)');
    assert.equal(pageOfContent('{page} / {pages} ページ'), 'counter(page) " \\2f  " counter(pages) " ページ"');
    assert.equal(pageOfContent('a"b\\c;}{page}{pages}'), '"a\\22 b\\5c c\\3b \\7d " counter(page) counter(pages)');
  });
  test('right to left: the page numbers move to the bottom-left box', () => {
    const css = invoiceCss({ accent: null, dir: 'rtl', lang: 'ar', labels: catalogs.ar });
    assert.match(css, /@bottom-right \{ content: none; \} @bottom-left \{ content: "صفحة " counter\(page\)/);
  });
});
