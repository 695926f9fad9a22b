// The reference invoices' views kept across design checks (src/render/referenceViews.ts): the same
// view as built anew, built once per reference, and a non-reference invoice never served a kept one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EXAMPLE_INVOICE } from '../../../src/invoice/example.js';
import { prepareInvoice, type PreparedInvoice } from '../../../src/invoice/prepareInvoice.js';
import { storedForm, templateId } from '../../../src/invoice/templatePackage.js';
import { referenceViews } from '../../../src/render/referenceViews.js';
import { loadInvoiceTemplates, type InvoiceTemplates } from '../../../src/render/templates.js';
import { designReferences } from '../../../src/settings.js';

const templates = loadInvoiceTemplates();
const pkg = storedForm({ css: '.masthead { padding-bottom: 7pt; }' });
const design = { id: templateId(pkg), package: pkg, stored: true };

/** The real templates, counting the views they build. */
function counting(): { templates: InvoiceTemplates; built: () => number } {
  let built = 0;
  return {
    templates: {
      ...templates,
      view: (prepared: PreparedInvoice) => {
        built++;
        return templates.view(prepared);
      },
    },
    built: () => built,
  };
}

test('a reference with a design gets the view built for it without one, built once', () => {
  const { templates: viewed, built } = counting();
  const views = referenceViews(viewed, designReferences);
  for (const reference of designReferences()) {
    const withDesign = { ...reference, design };
    const kept = views.view(withDesign);
    assert.deepEqual(
      kept,
      templates.view(withDesign),
      'the kept view is the one built for the invoice with its design',
    );
    assert.equal(views.view({ ...reference, design }), kept, 'asked again: the same view');
    assert.equal(views.view(reference), kept, 'the reference without a design: the same view');
  }
  assert.equal(built(), designReferences().length);
});

test('an invoice that is not a reference is viewed anew each time', () => {
  const { templates: viewed, built } = counting();
  const views = referenceViews(viewed, designReferences);
  const example = prepareInvoice(EXAMPLE_INVOICE);
  assert.notEqual(views.view(example), views.view(example));
  // The reference's invoice, but another field than the design differs: not the reference.
  const reference = designReferences()[0]!;
  const kept = views.view(reference);
  assert.notEqual(views.view({ ...reference, locale: { ...reference.locale } }), kept);
  assert.equal(built(), 4);
});

test('buildAhead builds every reference view, one per turn of the event loop', async () => {
  const { templates: viewed, built } = counting();
  const views = referenceViews(viewed, designReferences);
  views.buildAhead();
  assert.equal(built(), 0, 'nothing built in the calling turn');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(built(), 1, 'one in the next turn');
  for (let turn = 0; turn < designReferences().length + 2; turn++)
    await new Promise((resolve) => setImmediate(resolve));
  assert.equal(built(), designReferences().length);
  for (const reference of designReferences()) views.view({ ...reference, design });
  assert.equal(built(), designReferences().length, 'the checks build none');
});
