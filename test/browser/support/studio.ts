import { expect, type Locator, type Page } from '@playwright/test';
import { PNG } from 'pngjs';

/** Opens the studio and waits for its first preview (it forks classic when nothing is kept). */
export async function openStudio(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/studio`);
  await expect(page.locator('#studio')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByRole('img', { name: 'Page 1' })).toBeVisible();
  await expect(page.locator('#pages')).toHaveAttribute('data-state', 'fresh');
}

const shownPreviews = async (page: Page) => Number((await page.locator('#pages').getAttribute('data-shown')) ?? 0);

/**
 * Does `action` and waits until a newer preview than before is shown. Up to 60 s: a preview of the
 * 200-line reference invoice stayed "Updating the preview…" past 20 s once in CI (a fresh clone at
 * 7566aac, the browser tier beside lint, tsc and the corpus files), and took 36.8 s for the whole
 * test at load 8; what the test checks is that it comes, not how fast.
 */
export async function nextPreview(page: Page, action: () => Promise<void>): Promise<void> {
  const before = await shownPreviews(page);
  await action();
  await expect.poll(() => shownPreviews(page), { timeout: 60_000 }).toBeGreaterThan(before);
  await expect(page.locator('#pages')).toHaveAttribute('data-state', 'fresh');
}

/** Selects a file's tab and focuses its editor, found by its accessible name (HTML, CSS, a partial's name). */
export async function openEditor(page: Page, name: string): Promise<Locator> {
  await page.getByRole('tab', { name: new RegExp(`^${name}\\b`) }).click();
  const editor = page.getByRole('textbox', { name, exact: true });
  await editor.focus();
  return editor;
}

/** Deletes line `line` (1-based) of the focused editor, its line break included. */
export async function removeLine(page: Page, line: number): Promise<void> {
  await page.keyboard.press('Control+Home');
  for (let down = 1; down < line; down += 1) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Delete');
}

/** Pixels of a PNG that are clearly red (the CSS the tests type paints text #ff0000). */
export function redPixels(png: Buffer): number {
  const { data } = PNG.sync.read(png);
  let red = 0;
  for (let at = 0; at < data.length; at += 4) {
    if (data[at]! > 200 && data[at + 1]! < 80 && data[at + 2]! < 80) red += 1;
  }
  return red;
}
