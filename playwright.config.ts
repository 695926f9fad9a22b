import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * Browser tests (test/browser/*.spec.ts), run by `npm test` after the node tests. They drive
 * Debian's Chromium: Playwright downloads no browser (never run `npx playwright install`). The
 * global set-up starts the real app in development mode with a real renderer on 127.0.0.1 and
 * stops it at the end. One worker: the tests share that server and one of them edits its templates.
 */
const isRoot = process.getuid?.() === 0;

export default defineConfig({
  testDir: 'test/browser',
  testMatch: '*.spec.ts',
  globalSetup: './test/browser/support/globalSetup.ts',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  globalTimeout: 10 * 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  // Screenshots and traces of failures go to the temp folder, not into the repository.
  outputDir: join(tmpdir(), 'invoice-pdf-playwright'),
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // Chromium's sandbox cannot run as root.
      args: isRoot ? ['--no-sandbox'] : [],
    },
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    screenshot: 'only-on-failure',
  },
});
