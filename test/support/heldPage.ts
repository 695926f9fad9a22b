import assert from 'node:assert/strict';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { prepareInvoice } from '../../src/invoice/prepareInvoice.js';
import type { Renderer } from '../../src/render/renderer.js';

/**
 * Runs `during` while a renderer of one page has that page taken by a render of our own, its browser
 * stopped (SIGSTOP) once that render has the page, so that the page stays taken however slowly
 * requests reach admission on a loaded machine. Renders that took the page themselves did not hold
 * it: the slot is freed when a render ends, and requests spread over their bodies' parse times found
 * it free again (four requests more than one render apart all admitted, a clone's npm test,
 * 2026-12-06; 5 of 10 turned away, reliability 8, a fresh clone's .ci/run at 1d68c58). The browser runs again, and our
 * render ends with its one page, before this resolves.
 */
export async function holdingTheOnlyPage<T>(renderer: Renderer, during: () => Promise<T>): Promise<T> {
  const held = renderer.renderPdf(prepareInvoice(EXAMPLE_INVOICE));
  // Admitted: it has the page, or waits for it while the page is made (a renderer's first page, or
  // one being replaced); either way it holds the page's place. Whether it holds the page itself
  // does not matter: a later render is admitted only within the pool and its queue (hasRoom).
  const { pagesInUse, queued } = renderer.stats();
  assert.equal(pagesInUse + queued, 1, `our render is the only one admitted (${pagesInUse} in use, ${queued} waiting)`);
  const browser = renderer.browserPid();
  assert.ok(browser, 'a browser is running');
  process.kill(browser, 'SIGSTOP');
  try {
    return await during();
  } finally {
    process.kill(browser, 'SIGCONT');
    assert.equal((await held).pages, 1);
  }
}
