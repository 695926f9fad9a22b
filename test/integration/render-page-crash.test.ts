import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Pool } from 'generic-pool';
import { BrowserSupervisor } from '../../src/render/browser.js';
import { findChromium } from '../../src/render/chromiumPath.js';
import { createPagePool, type PooledPage } from '../../src/render/pagePool.js';
import { openScratchDir, type ScratchDir } from '../../src/render/scratchDir.js';
import { processTree, waitForExit } from '../fixtures/processes.js';

/**
 * A crashed tab ("Page crashed!") does not disconnect the browser, and a render on it would hang
 * until the protocol timeout (RENDERING.md). The pool must notice at once: the page is marked
 * broken, the render on it fails through `crashed`, and the browser is replaced.
 */
const root = mkdtempSync(join(tmpdir(), 'render-page-crash-'));
let scratch: ScratchDir;
let supervisor: BrowserSupervisor;
let pool: Pool<PooledPage>;
const events: { event: string }[] = [];

before(() => {
  scratch = openScratchDir(root);
  const log = (event: object) => events.push(event as { event: string });
  supervisor = new BrowserSupervisor({ executablePath: findChromium(), sandbox: true, maxRenders: 100, protocolTimeoutMs: 30_000, scratch, log });
  pool = createPagePool(supervisor, { size: 1, maxWaiting: 4, acquireTimeoutMs: 20_000, log });
});
after(async () => {
  await pool.drain();
  await pool.clear();
  await supervisor.close();
  scratch.close();
  rmSync(root, { recursive: true, force: true });
});

test('a crashed page fails fast, is never reused, and its browser is replaced', { timeout: 60_000 }, async () => {
  const first = await pool.acquire();
  const processes = processTree(first.browser.pid!);
  void first.page.goto('chrome://crash').catch(() => undefined);
  await assert.rejects(first.crashed, /Page crashed/);
  assert.equal(first.broken, true);
  assert.equal(first.browser.retired, true);
  assert.ok(events.some((event) => event.event === 'page_crashed'));

  await pool.destroy(first);
  const second = await pool.acquire();
  assert.notEqual(second.browser.pid, first.browser.pid, 'a new browser');
  assert.equal(await second.page.evaluate(() => 1 + 1), 2, 'its page works');
  await pool.release(second);
  await waitForExit(processes);
});
