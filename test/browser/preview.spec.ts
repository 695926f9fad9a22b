import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { hostileInvoice, invoiceWithItems } from '../fixtures/invoices.js';
import { logoPng } from '../fixtures/realWorldInvoices.js';
import { pdfInfo } from '../fixtures/pdfTools.js';
import { BASE_URL, isOwnRequest, TEMPLATES_ROOT } from './support/env.js';

interface Money {
  formatted: string;
}
interface TotalsReport {
  subtotal: Money;
  discount: Money;
  tax: Money;
  total: Money;
}

/** Opens the preview and waits until the example is shown; collects every request the page makes. */
async function openPreview(page: Page): Promise<{ requests: string[] }> {
  const requests: string[] = [];
  page.on('request', (sent) => requests.push(sent.url()));
  await page.goto(`${BASE_URL}/preview`);
  await expect(page.frameLocator('#html').locator('.totals__total')).toBeVisible();
  await expect(page.locator('body')).toHaveAttribute('data-live', 'true');
  return { requests };
}

async function setEditor(page: Page, value: unknown): Promise<void> {
  await page.locator('#invoice').fill(typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

test('the preview shows the example with the totals the validate route computes, loading nothing from elsewhere', async ({
  page,
  request,
}) => {
  const report = (await (
    await request.post(`${BASE_URL}/v1/invoice/validate`, { data: EXAMPLE_INVOICE })
  ).json()) as TotalsReport;
  const { requests } = await openPreview(page);
  const invoice = page.frameLocator('#html');

  await expect(invoice.locator('.totals__total td.num')).toHaveText(report.total.formatted);
  await expect(invoice.locator('.totals__row', { hasText: 'Subtotal' }).locator('td.num')).toHaveText(
    report.subtotal.formatted,
  );
  await expect(invoice.locator('.totals__row', { hasText: 'Tax (' }).locator('td.num')).toHaveText(
    report.tax.formatted,
  );
  await expect(page.locator('#issues-summary')).toHaveText(`No issues. Total due ${report.total.formatted} (USD).`);
  await expect(page.locator('#invoice')).toHaveValue(JSON.stringify(EXAMPLE_INVOICE, null, 2));
  expect(requests.filter((url) => !isOwnRequest(url))).toEqual([]);
});

test('an invalid invoice lists the issues with their paths, as POST /v1/invoice/validate reports them', async ({
  page,
  request,
}) => {
  await openPreview(page);
  const invalid = {
    ...EXAMPLE_INVOICE,
    seller: { ...EXAMPLE_INVOICE.seller, name: '' },
    issue_date: '2026-02-30',
    line_items: [{ description: 'Work', quantity: -1, unit_price: 10 }],
  };
  const expected = (await (await request.post(`${BASE_URL}/v1/invoice/validate`, { data: invalid })).json()) as {
    error: { issues: { path: string; message: string }[] };
  };
  expect(expected.error.issues.map((issue) => issue.path)).toEqual(
    expect.arrayContaining(['seller.name', 'issue_date', 'line_items[0].quantity']),
  );

  await setEditor(page, invalid);
  const items = page.locator('#issue-list li');
  await expect(items).toHaveText(expected.error.issues.map((issue) => `${issue.path} ${issue.message}`));
  await expect(page.locator('#stale-note')).toBeVisible();

  await setEditor(page, '{ "seller": ');
  await expect(page.locator('#issues-summary')).toHaveText('The editor does not hold valid JSON.');
  await expect(items).toHaveCount(1);

  await setEditor(page, EXAMPLE_INVOICE);
  await expect(page.locator('#issues-summary')).toContainText('No issues.');
  await expect(page.locator('#stale-note')).toBeHidden();
});

test('user text stays text in the preview: hostile markup is shown escaped and fetches nothing', async ({ page }) => {
  const { requests } = await openPreview(page);
  const canary = 'http://127.0.0.1:9';
  await setEditor(page, hostileInvoice(canary));
  const invoice = page.frameLocator('#html');
  await expect(invoice.locator('.masthead__seller')).toHaveText(`<img src=${canary}/x>`);
  await expect(invoice.locator('td.items__description').first()).toHaveText(`<img src=${canary}/x>`);
  await expect(
    invoice.locator(
      'body img, body iframe, body link, body object, body embed, body script, body svg, body video, body style',
    ),
  ).toHaveCount(0);
  expect(requests.filter((url) => url.startsWith(canary))).toEqual([]);
  expect(requests.filter((url) => !isOwnRequest(url))).toEqual([]);
});

test('the currency and paper switches change the invoice, the HTML and the page-break view', async ({ page }) => {
  await openPreview(page);
  await page.locator('#currency').selectOption('EUR');
  await expect(page.locator('#invoice')).toHaveValue(/"currency": "EUR"/);
  await expect(page.frameLocator('#html').locator('.totals__total td.num')).toHaveText(/€/);

  await page.locator('#tab-pages').click();
  await expect(page.locator('#view-summary')).toHaveText('A4, 1 page', { timeout: 30_000 });
  await page.locator('#paper').selectOption('Letter');
  await expect(page.locator('#view-summary')).toHaveText('Letter, 1 page', { timeout: 30_000 });
  await expect(page.locator('#pages img')).toHaveCount(1);
});

test('Download PDF returns the real PDF of what is shown, with the page count of the page-break view', async ({
  page,
}) => {
  await openPreview(page);
  await expect(page.locator('#download')).toHaveText('Download PDF (free in development only)');

  const example = await downloadPdf(page);
  const info = pdfInfo(example);
  expect(info.Pages).toBe('1');
  expect(info.Title).toBe(`Invoice ${EXAMPLE_INVOICE.invoice_number}`);
  expect(info['Page size']).toContain('(letter)');

  await setEditor(page, invoiceWithItems(40));
  await page.locator('#paper').selectOption('A4');
  await page.locator('#tab-pages').click();
  const figures = page.locator('#pages figure');
  await expect(page.locator('#view-summary')).toHaveText(/^A4, [2-9] pages$/, { timeout: 30_000 });
  const shown = await figures.count();
  const long = pdfInfo(await downloadPdf(page));
  expect(Number(long.Pages)).toBe(shown);
  expect(long['Page size']).toContain('(A4)');
});

async function downloadPdf(page: Page): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download').click()]);
  expect(download.suggestedFilename()).toMatch(/^invoice-[A-Za-z0-9._-]+\.pdf$/);
  const path = await download.path();
  const pdf = readFileSync(path);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  await expect(page.locator('#status')).toContainText('not paid (development only)');
  return pdf;
}

test('editing a template or a style on disk updates the open preview and the PDF, without a reload', async ({
  page,
}) => {
  const header = join(TEMPLATES_ROOT, 'templates', 'partials', 'header.hbs');
  const styles = join(TEMPLATES_ROOT, 'styles', 'invoice.css');
  const originalHeader = readFileSync(header, 'utf8');
  const originalStyles = readFileSync(styles, 'utf8');
  const english = join(TEMPLATES_ROOT, 'templates', 'locales', 'en.json');
  const originalCatalog = readFileSync(english, 'utf8');
  await openPreview(page);
  const invoice = page.frameLocator('#html');
  const title = invoice.locator('.masthead__title h1');
  await expect(title).toHaveText('Invoice');
  // The page itself must not reload: a marker set now has to survive the edits.
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'still here'));

  try {
    // The h1 may carry a lang attribute (a Tax Invoice mark under another language's title).
    const titleElement = /<h1[^>]*>\{\{documentTitle\}\}<\/h1>/;
    expect(originalHeader).toMatch(titleElement);
    writeFileSync(header, originalHeader.replace(titleElement, '<h1>Rechnung</h1>'));
    await expect(title).toHaveText('Rechnung');
    await expect(page.locator('#status')).toContainText('reloaded');

    // A translator's edit of a label catalog shows the same way.
    const catalog = JSON.parse(originalCatalog) as Record<string, string>;
    writeFileSync(english, JSON.stringify({ ...catalog, subtotal: 'Net amount' }, null, 2));
    await expect(invoice.locator('.totals__first th')).toHaveText('Net amount');

    expect(originalStyles).toMatch(/--accent: #[0-9a-f]{6};/);
    writeFileSync(styles, originalStyles.replace(/--accent: #[0-9a-f]{6};/, '--accent: #aa0000;'));
    await expect(title).toHaveCSS('color', 'rgb(170, 0, 0)');

    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('still here');
    const text = pdfText(await downloadPdf(page));
    expect(text).toContain('RECHNUNG');
  } finally {
    writeFileSync(header, originalHeader);
    writeFileSync(styles, originalStyles);
    writeFileSync(english, originalCatalog);
  }
  await expect(title).toHaveText('Invoice');
});

function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-', '-'], { input: pdf, encoding: 'utf8', timeout: 30_000 });
}

test('the language, document and logo switches edit the JSON, and the page follows', async ({ page }) => {
  await openPreview(page);
  const invoice = page.frameLocator('#html');
  const editorJson = async () => JSON.parse(await page.locator('#invoice').inputValue()) as Record<string, unknown>;

  await page.locator('#locale').selectOption('de-DE');
  await expect(invoice.locator('.masthead__title h1')).toHaveText('Rechnung');
  await expect(invoice.locator('.totals__total th')).toContainText('Gesamtbetrag');
  expect((await editorJson()).locale).toBe('de-DE');

  await page.locator('#document-type').selectOption('credit_note');
  await expect(invoice.locator('.masthead__title h1')).toHaveText('Gutschrift');
  expect((await editorJson()).document_type).toBe('credit_note');

  await page.locator('#logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logoPng() });
  await expect(invoice.locator('img.masthead__logo')).toBeVisible();
  expect(String((await editorJson()).logo)).toMatch(/^data:image\/png;base64,/);
  await page.locator('#logo-remove').click();
  await expect(invoice.locator('img.masthead__logo')).toHaveCount(0);

  await page.locator('#locale').selectOption('ar-EG');
  await expect(invoice.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(invoice.locator('.masthead__title h1')).toHaveText('إشعار دائن');

  await page.locator('#example').selectOption('real_world');
  await expect(invoice.locator('.vat__table .vat__row:not(.vat__head)')).toHaveCount(2);
  await expect(page.locator('#locale')).toHaveValue('de-DE');
});

test("the design, stamp and theme switches edit the JSON and the page follows; editing a design's files reloads it", async ({
  page,
}) => {
  await openPreview(page);
  const invoice = page.frameLocator('#html');
  const editorJson = async () => JSON.parse(await page.locator('#invoice').inputValue()) as Record<string, unknown>;
  await expect(invoice.locator('body')).toHaveClass('design-classic');

  await page.locator('#design').selectOption('modern');
  await expect(invoice.locator('body')).toHaveClass('design-modern');
  // modern's own header partial: the amount due in the masthead.
  await expect(invoice.locator('.masthead__amount')).toHaveText(
    await invoice.locator('.totals__total td.num').innerText(),
  );
  expect((await editorJson()).design).toBe('modern');

  await page.locator('#stamp').selectOption('draft');
  await expect(invoice.locator('.stamp__word')).toHaveText('Draft');
  expect((await editorJson()).stamp).toBe('draft');
  await page.locator('#locale').selectOption('de-DE');
  await expect(invoice.locator('.stamp__word')).toHaveText('Entwurf');

  await page.locator('#theme').selectOption('logo centred, green');
  await expect(invoice.locator('.masthead__title h1')).toHaveText('Tax invoice');
  await expect(invoice.locator('.masthead')).toHaveCSS('background-color', 'rgb(29, 107, 79)');
  expect((await editorJson()).theme).toMatchObject({ colors: { accent: '#1d6b4f' } });

  await page.locator('#design').selectOption('compact');
  await expect(invoice.locator('body')).toHaveClass('design-compact logo-center');
  await expect(invoice.locator('.masthead__amount')).toHaveCount(0);
  await page.locator('#stamp').selectOption('');
  await page.locator('#theme').selectOption('');
  await expect(invoice.locator('.stamp')).toHaveCount(0);
  expect(await editorJson()).not.toHaveProperty('theme');

  // A designer edits compact's stylesheet on disk: the open page shows it without a reload.
  const designCss = join(TEMPLATES_ROOT, 'templates', 'designs', 'compact', 'design.css');
  const original = readFileSync(designCss, 'utf8');
  try {
    expect(original).toMatch(/--accent: #[0-9a-f]{6};/);
    writeFileSync(designCss, original.replace(/--accent: #[0-9a-f]{6};/, '--accent: #aa0000;'));
    await expect(invoice.locator('.masthead__title h1')).toHaveCSS('color', 'rgb(170, 0, 0)');
  } finally {
    writeFileSync(designCss, original);
  }
  await expect(invoice.locator('.masthead__title h1')).not.toHaveCSS('color', 'rgb(170, 0, 0)');
});
