import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { findChromium } from '../../src/render/chromiumPath.js';
import { RenderSupervisor } from '../../src/render/renderSupervisor.js';
import { openScratchDir, type ScratchDir } from '../../src/render/scratchDir.js';
import { processTree, waitForExit } from '../fixtures/processes.js';

/**
 * A crashed tab ("Page crashed!") does not disconnect the browser, and a render on it would hang
 * until the protocol timeout. The pool must notice at once: the page is marked
 * broken, the render on it fails through `crashed`, and the browser is replaced.
 */
const root = mkdtempSync(join(tmpdir(), 'render-page-crash-'));
let scratch: ScratchDir;
let supervisor: RenderSupervisor;
const events: { event: string }[] = [];

before(async () => {
  scratch = openScratchDir(root);
  const log = (event: object) => events.push(event as { event: string });
  supervisor = new RenderSupervisor({
    pages: 1,
    queueLimit: 4,
    waitTimeoutMs: 20_000,
    browser: { executablePath: findChromium(), sandbox: true, maxRenders: 100, protocolTimeoutMs: 30_000, scratch },
    log,
  });
  await supervisor.start();
});
after(async () => {
  await supervisor.close();
  scratch.close();
  rmSync(root, { recursive: true, force: true });
});

test('a crashed page fails fast, is never reused, and its browser is replaced', { timeout: 60_000 }, async () => {
  const first = await supervisor.run(async (pooled) => {
    void pooled.page.goto('chrome://crash').catch(() => undefined);
    await assert.rejects(pooled.crashed, /Page crashed/);
    return pooled;
  });
  const processes = processTree(first.browser.pid!);
  assert.equal(first.broken, true);
  assert.equal(first.browser.retired, true);
  assert.ok(events.some((event) => event.event === 'page_crashed'));

  // The task itself succeeded, yet the crashed page is not handed out again.
  const second = await supervisor.run(async (pooled) => {
    assert.notEqual(pooled, first);
    assert.notEqual(pooled.browser.pid, first.browser.pid, 'a new browser');
    assert.equal(await pooled.page.evaluate(() => 1 + 1), 2, 'its page works');
    return pooled;
  });
  assert.equal(second.broken, false);
  await waitForExit(processes);
});
