import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { prepareInvoice } from '../../src/invoice/prepareInvoice.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { waitUntil } from '../fixtures/processes.js';

/**
 * After maxRendersPerPage renders a page is closed and the pool opens a fresh one (its renderer's
 * caches start small again); the browser stays, and no render notices.
 */
let renderer: Renderer;
const events: { event: string; renders?: number }[] = [];
before(async () => {
  renderer = await createRenderer({ poolSize: 1, maxRendersPerPage: 3, log: (event) => events.push(event as { event: string }) });
});
after(async () => {
  await renderer.close();
});

test('pages are replaced after their share of renders, on the same browser, without a failed render', { timeout: 60_000 }, async () => {
  const browser = renderer.browserPid();
  for (let index = 0; index < 10; index++) assert.equal((await renderer.renderPdf(prepareInvoice(EXAMPLE_INVOICE))).pages, 1);
  const retired = events.filter((event) => event.event === 'page_retired');
  assert.equal(retired.length, 3, 'renders 3, 6 and 9 retired their page');
  assert.ok(retired.every((event) => event.renders === 3));
  assert.equal(renderer.browserPid(), browser, 'the browser was not replaced');
  assert.equal(renderer.stats().restarts, 0);
  assert.equal(renderer.stats().failures, 0);
  await waitUntil(() => renderer.stats().pagesIdle === 1, 10_000);
});
