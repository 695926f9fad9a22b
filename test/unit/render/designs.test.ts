import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InputRejected } from '../../../src/errors.js';
import { canonicalJson, themeId, THEME_MAX_BYTES, type Theme } from '../../../src/invoice/designFields.js';
import { EXAMPLE_INVOICE } from '../../../src/invoice/example.js';
import { prepareInvoice } from '../../../src/invoice/prepareInvoice.js';
import { loadInvoiceTemplates } from '../../../src/render/templates.js';
import { themeCss } from '../../../src/render/themeCss.js';
import { resolveThemeReference, putTheme } from '../../../src/themes/storedThemes.js';
import { createMemoryThemeStore } from '../../../src/themes/themeStore.js';

/** design, stamp and theme: what the schema refuses, what reaches the page, and the theme store. */
const templates = loadInvoiceTemplates();
const html = (extra: Record<string, unknown>) =>
  templates.page(templates.view(prepareInvoice({ ...EXAMPLE_INVOICE, ...extra })));

function issuesOf(body: unknown): { path: string; code: string }[] {
  try {
    prepareInvoice(body);
  } catch (error) {
    assert.ok(error instanceof InputRejected, String(error));
    return (error.issues ?? []).map(({ path, code }) => ({ path, code }));
  }
  assert.fail('accepted');
}

describe('bad input is a 400 naming the field', () => {
  test('unknown design and stamp, a colour that is not #rrggbb, a font off the allow-list, an unknown block, a bad reference: every issue at once', () => {
    const issues = issuesOf({
      ...EXAMPLE_INVOICE,
      design: 'fancy',
      stamp: 'urgent',
      theme: {
        colors: { accent: 'red', ink: '#12345' },
        font: 'Comic Sans MS',
        show: { totals: false },
        density: 'tiny',
      },
    });
    const paths = issues.map((issue) => issue.path).sort();
    assert.deepEqual(
      paths,
      [
        'design',
        'stamp',
        'theme.colors.accent',
        'theme.colors.ink',
        'theme.density',
        'theme.font',
        'theme.show.totals',
      ].sort(),
    );
    assert.deepEqual(
      issuesOf({ ...EXAMPLE_INVOICE, theme: 'sha256:abc' }).map((issue) => issue.path),
      ['theme'],
    );
    assert.deepEqual(
      issuesOf({ ...EXAMPLE_INVOICE, theme: `sha256:${'A'.repeat(64)}` }).map((issue) => issue.path),
      ['theme'],
    );
    assert.deepEqual(
      issuesOf({ ...EXAMPLE_INVOICE, theme: { labels: { page_of: 'x' } } }).map((issue) => issue.path),
      ['theme.labels.page_of'],
    );
    // No theme makes the invoice unreadable: text colours dark enough on white, panels light enough.
    const pale = issuesOf({
      ...EXAMPLE_INVOICE,
      theme: { colors: { accent: '#ffffff', ink: '#999999', muted: '#eeeeee', tint: '#333333', rule: '#ffffff' } },
    });
    assert.deepEqual(pale.map((issue) => issue.path).sort(), [
      'theme.colors.accent',
      'theme.colors.ink',
      'theme.colors.muted',
      'theme.colors.tint',
    ]);
  });

  test(`a theme over ${THEME_MAX_BYTES / 1024} KiB as JSON is refused`, () => {
    const labels = Object.fromEntries(
      [
        'invoice',
        'credit_note',
        'from',
        'bill_to',
        'ship_to',
        'issue_date',
        'due_date',
        'currency',
        'subtotal',
        'discount',
        'tax',
        'total',
        'notes',
        'iban',
        'bic',
        'amount',
        'quantity',
        'description',
        'unit_price',
        'amount_paid',
        'balance_due',
        'total_due',
        'total_credit',
        'payment_details',
        'account_name',
        'payment_reference',
        'payment_instructions',
        'scan_to_pay',
        'vat_id',
        'tax_id',
        'contact',
        'purchase_order',
        'buyer_reference',
        'preceding_invoice',
        'line_number',
        'item_code',
        'line_vat_rate',
        'taxable_amount',
        'vat_breakdown',
        'vat_category',
        'vat_rate',
        'vat_taxable',
        'vat_amount',
      ].map((key) => [key, 'x'.repeat(200)]),
    );
    assert.ok(canonicalJson({ labels }).length > THEME_MAX_BYTES);
    assert.deepEqual(
      issuesOf({ ...EXAMPLE_INVOICE, theme: { labels } }).map((issue) => issue.path),
      ['theme'],
    );
  });
});

describe('what reaches the page', () => {
  test('the design picks its stylesheet and partials; classic is the default', () => {
    assert.match(html({}), /<body class="design-classic">/);
    assert.match(html({ design: 'modern' }), /<body class="design-modern">[\s\S]*class="masthead__due"/);
    assert.doesNotMatch(html({}), /masthead__due/);
    assert.match(html({ design: 'compact' }), /<body class="design-compact">/);
  });

  test('a stamp prints its word in the invoice language; none without a stamp', () => {
    assert.match(
      html({ stamp: 'paid' }),
      /<div class="stamp stamp--paid" aria-hidden="true"><span class="stamp__word">Paid<\/span><\/div>/,
    );
    assert.match(html({ stamp: 'void', locale: 'de-DE' }), /stamp__word">Storniert</);
    assert.doesNotMatch(html({}), /class="stamp/);
  });

  test('theme text is text: labels are escaped, colours and fonts reach CSS only as checked values', () => {
    const page = html({
      theme: {
        labels: { invoice: '</style><script>alert(1)</script>' },
        colors: { accent: '#1A5F7A', tint: '#F5F7FA' },
        font: 'Noto Serif',
      },
    });
    assert.ok(page.includes('&lt;/style&gt;&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.doesNotMatch(page, /<script/);
    assert.match(page, /:root \{ --accent: #1a5f7a; --accent-tint: #f5f7fa; --font-face: "Noto Serif"; \}/);
    // The invoice's own accent_color and labels win over the theme's.
    const own = html({
      accent_color: '#112233',
      labels: { invoice: 'Bill' },
      theme: { colors: { accent: '#5a2d82' }, labels: { invoice: 'Tax invoice' } },
    });
    assert.ok(own.indexOf('--accent: #5a2d82') < own.indexOf('--accent: #112233'));
    assert.match(own, /<h1>Bill<\/h1>/);
    assert.throws(() => themeCss({ colors: { accent: 'red;}' }, font: null, headingFont: null, faces: [] }), /#rrggbb/);
    // A light accent_color (not limited, it predates themes) gets dark text on it.
    assert.match(html({ accent_color: '#ffee88', design: 'modern' }), /--on-accent: #111827/);
    assert.doesNotMatch(html({ accent_color: '#0f5c6e', design: 'modern' }), /--on-accent: #111827/);
    assert.throws(
      () => themeCss({ colors: {}, font: 'x"; } body { display: none', headingFont: null, faces: [] }),
      /allow-list/,
    );
  });

  test('a theme leaves out optional blocks, never what an invoice must show', () => {
    const page = html({ notes: 'Thanks!', theme: { show: { line_numbers: false, notes: false } } });
    assert.doesNotMatch(page, /class="items__number"/);
    assert.match(html({}), /class="items__number"/);
    assert.doesNotMatch(page, /Thanks!/);
    assert.match(page, /INV-2026-0042/);
    assert.match(page, /colspan="1" rowspan/);
  });

  test('"Page X of Y" comes from the catalog, English included', () => {
    assert.match(html({}), /@bottom-right \{ content: "Page " counter\(page\) " of " counter\(pages\); \}/);
    assert.match(html({ locale: 'fr-FR' }), /content: "Page " counter\(page\) " sur " counter\(pages\)/);
  });
});

describe('themes by reference', () => {
  const theme: Theme = { colors: { accent: '#7a2e8f' }, density: 'compact' };

  test('the id is the SHA-256 of the canonical JSON: key order and white space do not matter', () => {
    const reordered = JSON.parse('{ "density": "compact", "colors": { "accent": "#7a2e8f" } }') as Theme;
    assert.equal(themeId(theme), themeId(reordered));
    assert.match(themeId(theme), /^sha256:[0-9a-f]{64}$/);
    assert.notEqual(themeId(theme), themeId({ ...theme, density: 'normal' }));
  });

  test('a stored theme resolves; an unknown id is a 400 on "theme"', async () => {
    const store = createMemoryThemeStore();
    const { id } = await putTheme(store, theme);
    const prepared = await resolveThemeReference(store, prepareInvoice({ ...EXAMPLE_INVOICE, theme: id }));
    assert.deepEqual(prepared.theme, theme);
    assert.match(templates.page(templates.view(prepared)), /--accent: #7a2e8f/);
    await assert.rejects(
      resolveThemeReference(store, prepareInvoice({ ...EXAMPLE_INVOICE, theme: `sha256:${'0'.repeat(64)}` })),
      (error: unknown) => {
        assert.ok(error instanceof InputRejected);
        assert.deepEqual(
          error.issues?.map(({ path, code }) => ({ path, code })),
          [{ path: 'theme', code: 'unknown_theme' }],
        );
        return true;
      },
    );
  });

  test('an unresolved reference never renders silently with the default look', () => {
    assert.throws(
      () => templates.view(prepareInvoice({ ...EXAMPLE_INVOICE, theme: `sha256:${'0'.repeat(64)}` })),
      /not resolved/,
    );
  });

  test('the memory store expires entries and keeps at most its cap, dropping the least recently put', async () => {
    let now = 0;
    const store = createMemoryThemeStore({ ttlSeconds: 10, maxEntries: 2, now: () => now });
    await store.put('a', '{}');
    await store.put('b', '{}');
    now = 5_000;
    await store.put('a', '{}'); // renewed, and now the most recent
    await store.put('c', '{}'); // over the cap: b goes
    assert.equal(await store.get('b'), undefined);
    assert.equal(await store.get('a'), '{}');
    now = 14_000;
    assert.equal(await store.get('c'), '{}');
    now = 15_000;
    assert.equal(await store.get('a'), undefined, 'expired 10 s after it was last put');
  });
});
