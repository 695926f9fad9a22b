import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { prepareInvoice } from '../../src/invoice/prepareInvoice.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { PROJECT_ROOT } from '../../src/render/templates.js';
import { startCanary, type Canary } from '../fixtures/canary.js';
import { hostileInvoice } from '../fixtures/invoices.js';
import { normalizeText, pdfPages } from '../fixtures/pdfTools.js';

/**
 * The second layer: suppose a template edit printed user text raw ({{{ }}}), so the markup became
 * real elements. JavaScript off, offline mode and request interception must still keep every
 * fetch and file read from happening.
 */
let renderer: Renderer;
let canary: Canary;
let root: string;

const RAW_FIELDS: Record<string, string[]> = {
  'header.hbs': ['seller.name'],
  'line-item.hbs': ['description'],
  'party.hbs': ['name', 'address'],
  'notes.hbs': ['notes.text', 'paymentInstructions.text'],
};

before(async () => {
  canary = await startCanary();
  root = mkdtempSync(join(tmpdir(), 'raw-templates-'));
  cpSync(join(PROJECT_ROOT, 'templates'), join(root, 'templates'), { recursive: true });
  cpSync(join(PROJECT_ROOT, 'styles'), join(root, 'styles'), { recursive: true });
  for (const [file, fields] of Object.entries(RAW_FIELDS)) {
    const path = join(root, 'templates', 'partials', file);
    let source = readFileSync(path, 'utf8');
    for (const field of fields) source = source.replaceAll(`{{${field}}}`, `{{{${field}}}}`);
    writeFileSync(path, source);
  }
  renderer = await createRenderer({ poolSize: 1, templatesRoot: root });
});
after(async () => {
  await renderer?.close();
  await canary.close();
  rmSync(root, { recursive: true, force: true });
});

test('with user markup live in the page, nothing is fetched and no file is read', { timeout: 60_000 }, async () => {
  const prepared = prepareInvoice(hostileInvoice(canary.origin));
  assert.match(renderer.renderHtml(prepared), /<img src=http:\/\/127\.0\.0\.1:\d+\/x>/, 'the markup really is live');
  // The live <meta http-equiv=refresh> starts a navigation that is blocked; under load it can
  // race the print and make a render fail (seen once in a full-suite run). Refusing to print is a
  // safe outcome, but the PDF's text must be checked too: try again until one prints.
  let pdf: Buffer | undefined;
  let refused = 0;
  for (let attempt = 0; attempt < 5 && !pdf; attempt++) {
    try {
      ({ pdf } = await renderer.renderPdf(prepared));
    } catch (error) {
      assert.equal((error as { code?: string }).code, 'render_failed', String(error));
      refused++;
    }
  }
  await canary.settle();
  assert.equal(canary.connections(), 0, 'connections to the canary');
  assert.ok(pdf, `no attempt printed (${refused} refused): the text checks below would not run`);

  const text = normalizeText(pdfPages(pdf, 'raw').join('\n'));
  assert.ok(!text.includes('<img src=http'), `the markup was interpreted, not printed: ${text.slice(0, 600)}`);
  const passwd = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .filter((line) => line.length > 8);
  for (const line of passwd) assert.ok(!text.includes(line), `no /etc/passwd line: ${line}`);
});
