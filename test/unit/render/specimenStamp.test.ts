import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SPECIMEN_TEXT } from '../../../src/invoice/specimen.js';
import { withSpecimenStamp } from '../../../src/render/specimenStamp.js';

// That Chromium prints it on every page is shown on a real PDF: test/e2e/trial-network.test.ts.
test('the stamp goes at the end of the body, as fixed elements saying what the document is', () => {
  const html = withSpecimenStamp('<html><body><p>Invoice</p></body></html>');
  assert.ok(html.endsWith('</body></html>'));
  const stamp = html.slice(html.indexOf('<p>Invoice</p>') + '<p>Invoice</p>'.length, html.indexOf('</body>'));
  assert.ok(stamp.includes(`<div class="specimen-stamp" role="note">${SPECIMEN_TEXT}</div>`));
  assert.match(stamp, /\.specimen-stamp \{ position: fixed;/);
  assert.match(stamp, /\.specimen-band \{ position: fixed;/);
  assert.ok(withSpecimenStamp('<p>no body</p>').includes('specimen-stamp'));
});
