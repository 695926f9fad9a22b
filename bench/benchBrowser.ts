import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumArgs } from '../src/render/browser.js';
import { findChromium, headlessMode } from '../src/render/chromiumPath.js';
import { openScratchDir } from '../src/render/scratchDir.js';

/**
 * A Chromium launched as the service's renderer launches it (src/render/browser.ts: Debian's
 * binary, its headless mode, the service's flags, a throwaway profile and TMPDIR), for the benches
 * that time one step of a render on a page of their own. `close` ends the browser and its scratch dir.
 */
export async function launchBenchBrowser(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const scratch = openScratchDir();
  const executablePath = findChromium();
  const browser = await puppeteer.launch({
    executablePath,
    headless: headlessMode(executablePath),
    pipe: true,
    userDataDir: scratch.profile(),
    args: chromiumArgs(),
    env: { ...process.env, TMPDIR: scratch.path },
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      scratch.close();
    },
  };
}
