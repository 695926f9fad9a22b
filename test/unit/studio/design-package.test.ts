import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  buyCommands,
  completePackage,
  DESIGN_ID,
  fontApplies,
  invoiceInDesign,
  previewInvoice,
} from '../../../src/http/studio/client/designPackage.js';
import { fileIssueText, issueRange, missingFactText, sortIssues } from '../../../src/http/studio/client/issues.js';

const classic = { data_version: 1, html: 'H', css: 'C', partials: { totals: 'T', header: 'HD' } };

test('a stored package is shown complete: what it leaves out is the built-in classic', () => {
  assert.deepEqual(completePackage({ css: 'mine', partials: { totals: 'mine' } }, classic), {
    html: 'H',
    css: 'mine',
    partials: { totals: 'mine', header: 'HD' },
  });
  assert.deepEqual(completePackage({ data_version: 2 }, classic), { ...classic, data_version: 2 });
  // A package's fonts by id stay as they are (the studio edits no font names).
  const fonts = { 'Brand Sans': `sha256:${'a'.repeat(64)}` };
  assert.deepEqual(completePackage({ fonts }, classic).fonts, fonts);
});

test('the preview invoice takes the picked language, envelope and brand fonts; none picked keeps its own', () => {
  const invoice = { invoice_number: 'A-1', locale: 'ar-EG' };
  assert.deepEqual(previewInvoice(invoice, { locale: '', envelope: '', fonts: [] }), invoice);
  const fonts = [
    { id: 'sha256:1', family: 'Brand', weight: 400, use: 'font' as const },
    { id: 'sha256:2', family: 'Brand', weight: 700, use: 'font_bold' as const },
  ];
  assert.deepEqual(previewInvoice(invoice, { locale: 'ja', envelope: 'us-10', fonts }), {
    invoice_number: 'A-1',
    locale: 'ja',
    envelope: 'us-10',
    theme: { font: 'sha256:1', font_bold: 'sha256:2' },
  });
  // An inline theme keeps its other fields; a stored theme (an id) keeps its own fonts.
  assert.deepEqual(
    previewInvoice({ theme: { density: 'compact', font: 'Noto Serif' } }, { locale: '', envelope: '', fonts }),
    {
      theme: { density: 'compact', font: 'sha256:1', font_bold: 'sha256:2' },
    },
  );
  assert.deepEqual(previewInvoice({ theme: 'sha256:9' }, { locale: '', envelope: '', fonts }), { theme: 'sha256:9' });
});

test('a bold face without its regular face is left out of the theme, as the service would refuse it', () => {
  const bold = { id: 'sha256:2', family: 'Brand', weight: 700, use: 'heading_font_bold' as const };
  const text = { id: 'sha256:1', family: 'Brand', weight: 400, use: 'font' as const };
  assert.equal(fontApplies(bold, [text, bold]), false);
  assert.equal(fontApplies(text, [text, bold]), true);
  assert.deepEqual(previewInvoice({}, { locale: '', envelope: '', fonts: [text, bold] }), {
    theme: { font: 'sha256:1' },
  });
  assert.deepEqual(previewInvoice({}, { locale: '', envelope: '', fonts: [bold] }), {});
  const heading = { ...text, id: 'sha256:3', use: 'heading_font' as const };
  assert.equal(fontApplies(bold, [heading, bold]), true);
  assert.deepEqual(previewInvoice({}, { locale: '', envelope: '', fonts: [heading, bold] }), {
    theme: { heading_font: 'sha256:3', heading_font_bold: 'sha256:2' },
  });
});

test('the ready request names the design id, the origin, curl and npm run buy', () => {
  const id = `sha256:${'a'.repeat(64)}`;
  assert.ok(DESIGN_ID.test(id));
  assert.ok(!DESIGN_ID.test(`sha256:${'A'.repeat(64)}`));
  assert.deepEqual(invoiceInDesign({ invoice_number: 'A-1' }, id), { invoice_number: 'A-1', design: id });
  const commands = buyCommands('http://127.0.0.1:8080');
  assert.match(
    commands,
    /curl -i -X POST 'http:\/\/127\.0\.0\.1:8080'\/v1\/invoice\.pdf .*--data-binary @invoice\.json/,
  );
  assert.match(
    commands,
    /SERVICE_URL='http:\/\/127\.0\.0\.1:8080' BUYER_PRIVATE_KEY=0x… npm run buy -- invoice\.json invoice\.pdf/,
  );
  assert.match(buyCommands("http://a'b"), /'http:\/\/a'\\''b'/);
});

test('issues are sorted into file errors at their line and missing facts grouped by field', () => {
  const { files, facts, others } = sortIssues([
    { path: 'css', code: 'css_syntax', message: 'Unclosed block', line: 3, column: 5 },
    { path: 'partials.totals', code: 'unknown_helper', message: 'no helper "sum"', line: 1 },
    { path: 'totals.due', code: 'missing_fact', message: 'The amount due is not shown', invoice: 'one-line' },
    { path: 'totals.due', code: 'missing_fact', message: 'The amount due is not shown', invoice: 'credit-note' },
    { path: 'invoice.locale', code: 'invalid_value', message: 'must be a BCP 47 locale' },
  ]);
  assert.deepEqual(others, [{ path: 'invoice.locale', code: 'invalid_value', message: 'must be a BCP 47 locale' }]);
  assert.deepEqual(files.map(fileIssueText), [
    'CSS, line 3, column 5: Unclosed block',
    'totals, line 1: no helper "sum"',
  ]);
  assert.deepEqual(
    facts.map((fact) => missingFactText(fact, new Map([['one-line', 'One line']]))),
    ['totals.due: The amount due is not shown (reference invoices: One line, credit-note)'],
  );
});

test('an issue range is the named line from its column, clamped into the text', () => {
  const lines = ['a {', '  color: red', '}'];
  assert.deepEqual(issueRange(lines, { line: 2, column: 3 }), { line: 2, from: 6, to: 16 });
  assert.deepEqual(issueRange(lines, { line: 2 }), { line: 2, from: 4, to: 16 });
  assert.deepEqual(issueRange(lines, {}), { line: 1, from: 0, to: 3 });
  assert.deepEqual(issueRange(lines, { line: 99, column: 99 }), { line: 3, from: 17, to: 18 });
  assert.deepEqual(issueRange([''], { line: 1, column: 4 }), { line: 1, from: 0, to: 0 });
});
