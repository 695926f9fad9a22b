import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { prepareInvoice } from '../../src/invoice/prepareInvoice.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { invoiceWithItems } from '../fixtures/invoices.js';
import { pdfInfo, pdfPages } from '../fixtures/pdfTools.js';

/** The non-default options: a forced paper size, and tagged (accessible) PDFs. */
let renderer: Renderer;
before(async () => {
  renderer = await createRenderer({ poolSize: 1, paperSize: 'A4', tagged: true });
});
after(async () => {
  await renderer.close();
});

test(
  'a forced paper size wins over the currency, and tagging keeps text, pages and metadata',
  { timeout: 60_000 },
  async () => {
    const example = await renderer.renderPdf(prepareInvoice(EXAMPLE_INVOICE)); // USD: Letter by default
    const info = pdfInfo(example.pdf);
    assert.match(info['Page size']!, /\(A4\)/);
    assert.equal(info.Tagged, 'yes');
    assert.equal(info.Title, 'Invoice INV-2026-0042');
    assert.equal(info.Author, 'Northwind Studio GmbH');
    assert.match(info.CreationDate!, /^2026-11-02T00:00:00/);

    const long = await renderer.renderPdf(prepareInvoice(invoiceWithItems(200)));
    assert.equal(Number(pdfInfo(long.pdf).Pages), long.pages);
    assert.match(pdfPages(long.pdf).at(-1)!, new RegExp(`Page ${long.pages} of ${long.pages}`));
  },
);
