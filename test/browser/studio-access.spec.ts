import { expect, test, type Page } from '@playwright/test';
import { latinOnlyFont } from '../support/testFonts.js';
import { BASE_URL } from './support/env.js';
import { nextPreview, openEditor, openStudio, removeLine } from './support/studio.js';

/** What has the keyboard focus: an id, or the role and accessible name CodeMirror's editor carries. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    if (!active || active === document.body) return 'body';
    const name = active.getAttribute('aria-label') ?? active.textContent?.trim() ?? '';
    return active.id || `${active.getAttribute('role') ?? active.tagName.toLowerCase()}:${name}`;
  });

/** The focused element's (or, for an editor, its frame's) outline: the visible focus. */
const focusOutline = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLElement;
    const shown = active.classList.contains('cm-content') ? active.closest('.cm-editor')! : active;
    const style = getComputedStyle(shown);
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });

test('every control is reached with Tab alone, with a visible focus, and the editors let Tab go', async ({ page }) => {
  await openStudio(page, BASE_URL);
  await page.locator('body').focus();
  const reached = new Set<string>();
  for (let press = 0; press < 60 && !reached.has('save'); press += 1) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    reached.add(now);
    if (now !== 'body') {
      const outline = await focusOutline(page);
      expect(outline.style, `focus of ${now}`).not.toBe('none');
      expect(outline.width, `focus of ${now}`).toBeGreaterThanOrEqual(2);
    }
  }
  for (const control of [
    'fork-design',
    'load-id',
    'textbox:HTML',
    'invoice-pick',
    'language-pick',
    'envelope-pick',
    'font-file',
    'save',
  ]) {
    expect([...reached], control).toContain(control);
  }
  expect([...reached].some((entry) => entry.startsWith('file-tab-'))).toBe(true);

  // Arrow keys move between the file tabs; the shown editor follows.
  await page.getByRole('tab', { name: 'HTML' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'CSS' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('textbox', { name: 'CSS', exact: true })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'HTML', exact: true })).toBeHidden();
});

test('readable at 200 % zoom (no sideways scrolling) and in light and dark', async ({ browser }) => {
  for (const colorScheme of ['light', 'dark'] as const) {
    // 1280 CSS pixels wide at 200 %: 640 CSS pixels.
    const page = await browser.newPage({ viewport: { width: 640, height: 900 }, deviceScaleFactor: 2, colorScheme });
    await openStudio(page, BASE_URL);
    const { scrollWidth, clientWidth, background } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
      background: getComputedStyle(document.body).backgroundColor,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    const [r = 0, g = 0, b = 0] = (background.match(/\d+/g) ?? []).map(Number);
    const light = (r + g + b) / 3 > 128;
    expect(light, `${colorScheme} background ${background}`).toBe(colorScheme === 'light');
    await expect(page.getByRole('textbox', { name: 'HTML', exact: true })).toBeVisible();
    await page.close();
  }
});

test('what is typed stays in the browser for a reload', async ({ page }) => {
  await openStudio(page, BASE_URL);
  await openEditor(page, 'CSS');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n/* kept for a reload */');
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('invoice-pdf-studio:draft') ?? ''))
    .toContain('kept for a reload');
  await openStudio(page, BASE_URL);
  await expect(page.locator('#start-status')).toContainText('Restored your unsaved work');
  await page.getByRole('tab', { name: 'CSS' }).click();
  await expect(page.getByRole('textbox', { name: 'CSS', exact: true })).toContainText('kept for a reload');
});

test('a network error and a 429 say so and keep the text; the preview comes back', async ({ page }) => {
  await openStudio(page, BASE_URL);
  await page.route('**/v1/templates/preview', (route) => route.abort('internetdisconnected'));
  await openEditor(page, 'CSS');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n/* offline edit */');
  await expect(page.locator('#preview-status')).toContainText('network error');
  await expect(page.locator('#preview-status')).toContainText('Your text is kept');
  await expect(page.getByRole('textbox', { name: 'CSS', exact: true })).toContainText('offline edit');
  await expect(page.getByRole('img', { name: 'Page 1' })).toBeVisible();

  await page.unroute('**/v1/templates/preview');
  await page.route('**/v1/templates/preview', (route) =>
    route.fulfill({
      status: 429,
      headers: { 'Retry-After': '1', 'Content-Type': 'application/json' },
      body: JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests.' } }),
    }),
  );
  await page.getByRole('button', { name: 'Retry the preview' }).click();
  await expect(page.locator('#preview-status')).toContainText('429');
  await page.unroute('**/v1/templates/preview');
  // The page tries again after Retry-After on its own.
  await expect(page.locator('#pages')).toHaveAttribute('data-state', 'fresh', { timeout: 20_000 });
});

test('an unknown or malformed stored id is a clear message', async ({ page }) => {
  await openStudio(page, BASE_URL);
  const id = page.getByLabel('Stored design id');
  await id.fill(`sha256:${'0'.repeat(64)}`);
  await page.getByRole('button', { name: 'Load' }).click();
  await expect(page.locator('#start-status')).toHaveText(
    `No design is stored under sha256:${'0'.repeat(64)}. Check the id (stored designs expire), or fork a built-in design.`,
  );
  await id.fill('sha256:nothex');
  await page.getByRole('button', { name: 'Load' }).click();
  await expect(page.locator('#start-status')).toContainText('A design id is sha256: followed by 64');
  await expect(id).toBeFocused();
});

test('a refused template shows the check errors in the editor, never a stack trace', async ({ page }) => {
  await openStudio(page, BASE_URL);
  const css = await openEditor(page, 'CSS');
  await page.keyboard.press('Control+Home');
  await nextPreview(page, async () => {
    await page.keyboard.type('@import "elsewhere.css";\n');
    await expect(css.locator('.cm-issueLine[data-issue-line="1"] .cm-lintRange-error')).toHaveCount(1);
    await expect(page.locator('#report-list')).toContainText(/CSS, line 1\b/);
    await removeLine(page, 1);
  });
  await expect(css.locator('.cm-issueLine')).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText(/\bat \S+\.(ts|js):\d+/);
});

test('a brand font uploaded from the page is named in the preview invoice theme; a file that is no font is refused', async ({
  page,
}) => {
  await openStudio(page, BASE_URL);
  const fontFile = page.getByLabel('Font file (TTF, OTF, WOFF or WOFF2)');
  const previewWith = (field: string) =>
    page.waitForRequest(
      (sent) => sent.url().endsWith('/v1/templates/preview') && (sent.postData() ?? '').includes(`"${field}":"sha256:`),
    );

  // The first font is the text's (a bold face alone would be refused: it is the bold of a brand font).
  let previewed = previewWith('font');
  await fontFile.setInputFiles({
    name: 'brand-bold.ttf',
    mimeType: 'font/ttf',
    buffer: await latinOnlyFont('truetype', 'bold'),
  });
  await expect(page.locator('#font-status')).toContainText('Noto Serif uploaded, used for text');
  const id = (JSON.parse((await previewed).postData()!) as { invoice: { theme: { font: string } } }).invoice.theme.font;
  expect(id).toMatch(/^sha256:[0-9a-f]{64}$/);
  await expect(page.locator('#font-list')).toContainText(id);
  await expect(page.locator('#pages')).toHaveAttribute('data-state', 'fresh');

  previewed = previewWith('heading_font');
  await page.getByLabel('Use Noto Serif for').selectOption('heading_font');
  await previewed;
  // Made a bold face with no regular face beside it: said on the page, left out of the preview's theme.
  const withoutFonts = page.waitForRequest(
    (sent) => sent.url().endsWith('/v1/templates/preview') && !(sent.postData() ?? '').includes('"sha256:'),
  );
  await page.getByLabel('Use Noto Serif for').selectOption('font_bold');
  await expect(page.getByLabel('Use Noto Serif for')).toBeFocused();
  await expect(page.locator('#font-list')).toContainText('Not used yet: a bold face needs a font for its regular face');
  await withoutFonts;
  await expect(page.locator('#pages')).toHaveAttribute('data-state', 'fresh');
  await page.getByRole('button', { name: 'Remove Noto Serif' }).click();
  await expect(page.locator('#font-list')).toBeEmpty();

  await fontFile.setInputFiles({
    name: 'not-a-font.ttf',
    mimeType: 'font/ttf',
    buffer: Buffer.from('plain text, no font'),
  });
  await expect(page.locator('#font-status')).toContainText('Uploading not-a-font.ttf refused (400 font_invalid)');
});

test('the language and envelope pickers go into the previewed invoice', async ({ page }) => {
  await openStudio(page, BASE_URL);
  const previewed = page.waitForRequest(
    (sent) =>
      sent.url().endsWith('/v1/templates/preview') &&
      /"locale":"de".*"envelope":"ch-left"|"envelope":"ch-left".*"locale":"de"/.test(sent.postData() ?? ''),
  );
  await page.getByLabel('Language').selectOption('de');
  await nextPreview(page, async () => {
    await page.getByLabel('Envelope window').selectOption('ch-left');
  });
  await previewed;
  await expect(page.locator('#preview-status')).toContainText('1 page');
});
