import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AppError } from '../../src/errors.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { prepareInvoice } from '../../src/invoice/prepareInvoice.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { invoiceWithItems } from '../fixtures/invoices.js';

/** A render over its deadline is a 502 render_timeout; its page is destroyed and replaced. */
let renderer: Renderer;
const events: { event: string }[] = [];
before(async () => {
  renderer = await createRenderer({ poolSize: 1, log: (event) => events.push(event as { event: string }) });
});
after(async () => {
  await renderer.close();
});

test(
  'a render past its deadline fails with 502 render_timeout, and the next render succeeds',
  { timeout: 60_000 },
  async () => {
    await assert.rejects(
      renderer.renderPdf(prepareInvoice(invoiceWithItems(200)), { timeoutMs: 1 }),
      (error: unknown) => {
        assert.ok(error instanceof AppError);
        assert.equal(error.code, 'render_timeout');
        return true;
      },
    );
    const { pages } = await renderer.renderPdf(prepareInvoice(EXAMPLE_INVOICE));
    assert.equal(pages, 1);
    const stats = renderer.stats();
    assert.equal(stats.failures, 1);
    assert.equal(stats.renders, 1);
    assert.equal(stats.restarts, 0, 'a timeout costs a page, not the browser');
  },
);
