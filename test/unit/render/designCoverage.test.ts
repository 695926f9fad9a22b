// Which prints of a stored design the print-time check reads from the text alone (src/render/
// designCheck.ts, designCoverage.ts): an invoice whose fill stays inside what the reference
// invoices' fills had; and every way an invoice can leave it sends the print to the full check.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EXAMPLE_INVOICE } from '../../../src/invoice/example.js';
import { prepareInvoice } from '../../../src/invoice/prepareInvoice.js';
import type { InvoiceInput } from '../../../src/invoice/schema.js';
import { storedForm, templateId, type TemplatePackage } from '../../../src/invoice/templatePackage.js';
import { builtinPackage } from '../../../src/render/builtinPackages.js';
import { designChecker } from '../../../src/render/designCheck.js';
import { paperOf } from '../../../src/render/paper.js';
import { loadInvoiceTemplates } from '../../../src/render/templates.js';
import { designReferences } from '../../../src/settings.js';
import { preparedReferences } from '../../../src/templates/contract/referenceInvoices.js';
import { HOUSE_STYLE } from '../../fixtures/housePackages.js';
import { invoiceWithItems } from '../../fixtures/invoices.js';
import { GERMAN_MIXED_RATE } from '../../fixtures/realWorldInvoices.js';

const templates = loadInvoiceTemplates();
const designs = designChecker(templates, 'auto', designReferences);
/** The design's coverage is made one reference fill per turn of the event loop. */
const coverageMade = async () => {
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
};

/** Why the print of `invoice` in `pkg` runs the full check (undefined: the text's check), once the design's coverage is made. */
async function fullCheckOf(pkg: object, invoice: InvoiceInput, { stored = true, textOnly = true } = {}) {
  const stored_ = storedForm(pkg as TemplatePackage);
  const design = { id: templateId(stored_), package: stored_, stored };
  const prepared = { ...prepareInvoice(invoice), design };
  const paper = paperOf(prepared, 'auto');
  designs.page(prepared, design, paper, textOnly);
  await coverageMade();
  return designs.page(prepared, design, paper, textOnly).fullCheck;
}

const classicPartial = (name: string) => builtinPackage('classic').partials[name]!;
const bench = (lines: number): InvoiceInput => ({ ...invoiceWithItems(lines), currency: 'EUR' });

describe('the print-time check of a stored design', () => {
  test('reads only the text of invoices the reference invoices cover', async () => {
    for (const lines of [1, 20, 200])
      assert.equal(await fullCheckOf(HOUSE_STYLE, bench(lines)), undefined, `${lines} lines`);
    assert.equal(await fullCheckOf(HOUSE_STYLE, EXAMPLE_INVOICE), undefined);
    for (const { id, prepared } of preparedReferences())
      assert.equal(await fullCheckOf(HOUSE_STYLE, prepared.invoice), undefined, id);
  });

  test("checks in full a design not read from the store, a preview, and a design's first print", async () => {
    assert.match((await fullCheckOf(HOUSE_STYLE, bench(1), { stored: false }))!, /no coverage/);
    assert.match((await fullCheckOf(HOUSE_STYLE, bench(1), { textOnly: false }))!, /no coverage/);
    const fresh = storedForm({ css: '.masthead { padding-bottom: 7pt; }' });
    const design = { id: templateId(fresh), package: fresh, stored: true };
    const prepared = { ...prepareInvoice(EXAMPLE_INVOICE), design };
    assert.match(designs.page(prepared, design, 'A4', true).fullCheck!, /first print/);
  });

  test('checks in full a block no reference invoice took (a class set only with a logo)', async () => {
    const notes = classicPartial('notes').replace(
      '<p lang="{{notes.lang}}"',
      '<p class="{{#if @root.logo}}faded{{/if}}" lang="{{notes.lang}}"',
    );
    const fading = { css: '.faded { opacity: 0; }', partials: { notes } };
    assert.equal(await fullCheckOf(fading, EXAMPLE_INVOICE), undefined, 'without a logo, covered');
    assert.match((await fullCheckOf(fading, { ...EXAMPLE_INVOICE, logo: GERMAN_MIXED_RATE.logo }))!, /^block .*:fn$/);
  });

  test('checks in full markup no reference page had (a field in a class, a theme colour)', async () => {
    const numbered = {
      partials: { header: classicPartial('header').replace('<h1', '<h1 class="n-{{invoiceNumber}}"') },
    };
    assert.equal(await fullCheckOf(numbered, EXAMPLE_INVOICE), undefined, 'the one-line reference has its number');
    assert.match(
      (await fullCheckOf(numbered, { ...EXAMPLE_INVOICE, invoice_number: 'INV-2026-0043' }))!,
      /^markup <h1 class="n-INV-2026-0043"/,
    );
    assert.match((await fullCheckOf(HOUSE_STYLE, { ...EXAMPLE_INVOICE, accent_color: '#7c3aed' }))!, /^markup <style>/);
  });

  test("checks in full a text longer than the references' of its kind", async () => {
    const invoice = bench(3);
    invoice.line_items[1]!.description = `${'Sehr lange Leistungsbeschreibung '.repeat(8)}`;
    assert.match((await fullCheckOf(HOUSE_STYLE, invoice))!, /^line_items\[\]\.description of \d+ characters$/);
  });

  test('checks in full a loop that goes round more often than in any reference invoice', async () => {
    const invoice: InvoiceInput = {
      ...GERMAN_MIXED_RATE,
      logo: undefined,
      discount: undefined,
      amount_paid: undefined,
      line_items: [5, 7, 10, 16, 19, 20, 21, 25].map((tax_rate, index) => ({
        description: `Position ${index + 1}`,
        quantity: 1,
        unit_price: 100,
        tax_rate,
      })),
    } as InvoiceInput;
    const reason = await fullCheckOf(HOUSE_STYLE, invoice);
    assert.ok(reason !== undefined, 'eight VAT rates: more rows of the VAT breakdown than any reference invoice has');
  });
});
