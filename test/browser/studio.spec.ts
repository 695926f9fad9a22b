import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { x402Client } from '@x402/core/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { templateId } from '../../src/invoice/templatePackage.js';
import { devKey } from '../../src/payment/local/devAccounts.js';
import { PREVIEW_MAX_PAGES } from '../../src/render/designLimits.js';
import { pdfPages } from '../fixtures/pdfTools.js';
import type { startPaidService, startPaymentWorld } from '../support/paidService.js';
import { importEntry } from '../support/childEntry.js';
import { nextPreview, openEditor, openStudio, redPixels, removeLine } from './support/studio.js';

/**
 * A designer's path through GET /studio, against the service as production wires it (payments on
 * the local test chain): fork classic, type CSS and see the preview change, an error shown at its
 * line, the contract report naming what a removed partial took away, Save, and an invoice bought
 * in the saved design by a stock x402 client.
 */
let world: Awaited<ReturnType<typeof startPaymentWorld>>;
let service: Awaited<ReturnType<typeof startPaidService>>;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // From npm test's bundle when it built one (test/support/childEntry.ts): Playwright compiles no app.
  const paid = await importEntry<typeof import('../support/paidService.js')>(
    new URL('../support/paidService.ts', import.meta.url),
  );
  world = await paid.startPaymentWorld();
  service = await paid.startPaidService({ net: world.net, renderer: world.renderer });
});
test.afterAll(async () => {
  await service?.close();
  await world?.close();
});

const RED_TEXT = '\n* { color: #ff0000 !important; }\n';

test('fork, type, see the preview, errors at their line, the contract report, Save, and buy with the id', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const outside: string[] = [];
  const refused: string[] = [];
  const checked: string[] = [];
  page.on('request', (sent) => {
    const url = sent.url();
    if (url === `${service.url}/v1/templates/check`) checked.push(sent.postData() ?? '');
    if (!url.startsWith(`${service.url}/`) && !url.startsWith('blob:') && !url.startsWith('data:')) outside.push(url);
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  await openStudio(page, service.url);

  // Fork classic (again: the page forked it on its own); the editors are named by file.
  await page.getByLabel('Built-in design').selectOption('classic');
  await nextPreview(page, () => page.getByRole('button', { name: 'Fork' }).click());
  await expect(page.getByRole('textbox', { name: 'HTML', exact: true })).toBeVisible();
  const before = await page.getByRole('img', { name: 'Page 1' }).screenshot();

  // Type CSS: the preview shows it within a pause.
  await openEditor(page, 'CSS');
  await page.keyboard.press('Control+End');
  await nextPreview(page, () => page.keyboard.type(RED_TEXT));
  const after = await page.getByRole('img', { name: 'Page 1' }).screenshot();
  expect(redPixels(after)).toBeGreaterThan(redPixels(before) + 500);

  // An error the check names at its line is shown on that line of the editor and in the report.
  const notes = await openEditor(page, 'notes');
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.type('{{nosuchhelper invoice_number}}\n');
  const marked = notes.locator('.cm-issueLine[data-issue-line="2"]');
  await expect(marked).toContainText('nosuchhelper');
  await expect(marked.locator('.cm-lintRange-error')).toHaveCount(1);
  await expect(page.getByRole('tab', { name: /^notes · 1 error$/ })).toBeVisible();
  await expect(page.locator('#report-list')).toContainText(/notes, line 2\b.*nosuchhelper/);
  await removeLine(page, 2);
  await expect(notes).not.toContainText('nosuchhelper');
  await expect(notes.locator('.cm-issueLine')).toHaveCount(0);

  // Removing the totals partial: the content contract report names the totals it no longer shows.
  await openEditor(page, 'totals');
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await expect(page.locator('#report-list')).toContainText(/totals\./);
  await page.keyboard.press('Control+z');
  await expect(page.locator('#report-list')).not.toContainText(/totals\./);
  await expect(page.locator('#report-summary')).toContainText('No issue');

  // Every page of a preview is watermarked, and a preview has at most PREVIEW_MAX_PAGES pages:
  // the 200-line reference invoice, as the service answered it to the page, read by Poppler.
  const longPreview = page.waitForResponse(
    (answer) =>
      answer.url() === `${service.url}/v1/templates/preview` &&
      (JSON.parse(answer.request().postData() ?? '{}') as { invoice?: { line_items?: unknown[] } }).invoice?.line_items
        ?.length === 200,
  );
  await nextPreview(page, async () => void (await page.getByLabel('Reference invoice').selectOption('many-lines')));
  const previewAnswer = await longPreview;
  expect(previewAnswer.status()).toBe(200);
  expect(previewAnswer.headers()['ratelimit-policy'], "the preview spends the free routes' rate limit").toBeTruthy();
  const previewPages = pdfPages(await previewAnswer.body());
  expect(previewPages.length).toBeGreaterThan(1);
  expect(previewPages.length).toBeLessThanOrEqual(PREVIEW_MAX_PAGES);
  previewPages.forEach((text, index) => expect(text, `preview page ${index + 1}`).toContain('PREVIEW'));
  await expect(page.getByRole('img', { name: `Page ${previewPages.length}`, exact: true })).toBeVisible();
  await nextPreview(page, async () => void (await page.getByLabel('Reference invoice').selectOption('one-line')));

  // Nothing is stored before Save: the package the last check read has no stored design yet.
  const unsaved = templateId(JSON.parse(checked.at(-1)!) as Parameters<typeof templateId>[0]);
  expect((await fetch(`${service.url}/v1/templates/${unsaved}`)).status).toBe(404);

  // Save: the id and a ready request to buy an invoice in the design.
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('#saved-id')).toHaveText(/^sha256:[0-9a-f]{64}$/);
  const id = await page.locator('#saved-id').textContent();
  expect(id).toBe(unsaved);
  expect((await fetch(`${service.url}/v1/templates/${id}`)).status).toBe(200);
  const body = (await page.locator('#buy-json').textContent()) ?? '';
  expect(JSON.parse(body)).toMatchObject({ design: id });
  await expect(page.locator('#buy-commands')).toContainText(`SERVICE_URL='${service.url}'`);
  await expect(page.locator('#buy-commands')).toContainText('npm run buy -- invoice.json');

  // Buy it with a stock x402 client (@x402/fetch), paying test USDC on the local chain.
  const client = new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(devKey(1).privateKey)));
  const paid = await wrapFetchWithPayment(fetch, client)(`${service.url}/v1/invoice.pdf`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  });
  expect(paid.status).toBe(200);
  expect(paid.headers.get('content-type')).toBe('application/pdf');
  expect(paid.headers.get('payment-response')).toBeTruthy();
  const pdf = Buffer.from(await paid.arrayBuffer());
  // The bought PDF is in the saved design (its red text) and carries no preview watermark.
  expect(redPixels(firstPagePng(pdf))).toBeGreaterThan(500);
  expect(pdfPages(pdf).join('\n')).not.toContain('PREVIEW');

  expect(outside, 'the studio loads nothing from another origin').toEqual([]);
  expect(refused, 'nothing the page does is refused by its Content-Security-Policy').toEqual([]);
});

/** Page 1 of a PDF as a PNG, drawn by Poppler. */
function firstPagePng(pdf: Buffer): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'studio-bought-'));
  try {
    writeFileSync(join(dir, 'invoice.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', '50', '-png', '-f', '1', '-l', '1', '-singlefile', 'invoice.pdf', 'page'], {
      cwd: dir,
      timeout: 20_000,
    });
    return readFileSync(join(dir, 'page.png'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
