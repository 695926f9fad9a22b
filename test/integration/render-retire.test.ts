import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { prepareInvoice } from '../../src/invoice/prepareInvoice.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { processTree, waitForExit } from '../fixtures/processes.js';

/**
 * After maxRendersPerBrowser renders a browser is replaced: the successor is launched while the
 * old one keeps serving (so a few more renders may land on it), then the old one goes away entirely.
 */
let renderer: Renderer;
before(async () => {
  renderer = await createRenderer({ poolSize: 2, maxRendersPerBrowser: 3 });
});
after(async () => {
  await renderer.close();
});

test(
  'browsers are replaced after their share of renders, without a gap, and leave no process behind',
  { timeout: 60_000 },
  async () => {
    const trees = new Map<number, number[]>();
    const rendersOn = new Map<number, number>();
    for (let index = 0; index < 60 && trees.size < 3; index++) {
      const pid = renderer.browserPid();
      assert.ok(pid !== undefined && renderer.stats().browserConnected, 'a browser is always up');
      if (!trees.has(pid)) trees.set(pid, processTree(pid));
      assert.equal((await renderer.renderPdf(prepareInvoice(EXAMPLE_INVOICE))).pages, 1);
      rendersOn.set(pid, (rendersOn.get(pid) ?? 0) + 1);
    }
    assert.equal(trees.size, 3, 'three browsers');
    assert.ok(renderer.stats().restarts >= 2);
    const [first, second] = [...trees.keys()];
    assert.ok(rendersOn.get(first!)! >= 3 && rendersOn.get(second!)! >= 3, 'each did at least its share');
    const current = renderer.browserPid();
    await waitForExit([...trees].filter(([pid]) => pid !== current).flatMap(([, tree]) => tree));
  },
);
