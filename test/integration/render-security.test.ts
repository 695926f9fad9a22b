import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { prepareInvoice } from '../../src/invoice/prepareInvoice.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { startCanary, type Canary } from '../fixtures/canary.js';
import { hostileInvoice, hostileTexts } from '../fixtures/invoices.js';
import { normalizeText, pdfPages } from '../fixtures/pdfTools.js';

/**
 * Markup in user text is printed, not interpreted: nothing is fetched (a canary server on
 * 127.0.0.1 counts connections) and no local file is read. render-defense.test.ts checks that
 * the page would fetch nothing even if a template printed the markup raw.
 */
let renderer: Renderer;
let canary: Canary;
before(async () => {
  canary = await startCanary();
  renderer = await createRenderer({ poolSize: 1 });
});
after(async () => {
  await renderer.close();
  await canary.close();
});

test('markup in every text field is printed as text and fetches nothing', { timeout: 60_000 }, async () => {
  const { pdf } = await renderer.renderPdf(prepareInvoice(hostileInvoice(canary.origin)));
  await canary.settle();
  assert.equal(canary.connections(), 0, 'connections to the canary');

  // In drawing order, without the white space where long text wrapped.
  const compact = (text: string) => normalizeText(text).replace(/\s+/g, '');
  const pages = pdfPages(pdf, 'raw').map(compact);
  const text = pages.join('');
  for (const vector of hostileTexts(canary.origin)) {
    assert.ok(text.includes(compact(vector)), `printed literally: ${vector}`);
  }
  pages.forEach((page, index) => {
    assert.ok(
      page.includes(compact('Invoice <img src=x>')),
      `the footer of page ${index + 1} prints the invoice number as text`,
    );
    assert.ok(page.includes(compact(`Page ${index + 1} of ${pages.length}`)), `page ${index + 1} is numbered`);
  });

  const passwd = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .filter((line) => line.length > 8);
  assert.ok(passwd.length > 0);
  for (const line of passwd) assert.ok(!text.includes(compact(line)), `no /etc/passwd line: ${line}`);
});
