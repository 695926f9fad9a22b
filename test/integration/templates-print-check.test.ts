// The print-time check of a customer's design (src/render/printedFacts.ts, docs/templates.md
// "Checked again when printing") on the real renderer: each way of hiding the totals that the
// check reads without hit testing refuses the print with hidden_fact and its reason, and a design
// that hides nothing prints at 1 and 200 lines. The upload's look (with hit testing) is covered by
// test/reliability/templates-hostile.test.ts; this is the cheaper reading every paid print runs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AppError } from '../../src/errors.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { prepareInvoice } from '../../src/invoice/prepareInvoice.js';
import { storedForm, templateId, type TemplatePackage } from '../../src/invoice/templatePackage.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { HOUSE_STYLE } from '../fixtures/housePackages.js';
import { invoiceWithItems } from '../fixtures/invoices.js';
import { hidingPackages } from '../reliability/support/hidingPackages.js';

let renderer: Renderer;
before(async () => {
  renderer = await createRenderer({ poolSize: 1 });
});
after(async () => {
  await renderer?.close();
});

const withDesign = (invoice: Parameters<typeof prepareInvoice>[0], pkg: object) => {
  const stored = storedForm(pkg as TemplatePackage);
  return { ...prepareInvoice(invoice), design: { id: templateId(stored), package: stored } };
};

describe('the print-time check of a customer design', () => {
  test(
    'refuses each hiding of the totals it can read, with hidden_fact and the reason',
    { timeout: 120_000 },
    async () => {
      // Hit testing (an opaque box laid over the text) is the upload's alone.
      const readable = hidingPackages.filter(({ reason }) => reason !== 'covered');
      assert.ok(readable.length >= 13, 'every other reason of the table');
      for (const { name, pkg, reason } of readable) {
        const refused = await renderer.renderPdf(withDesign(EXAMPLE_INVOICE, pkg)).then(
          () => undefined,
          (error: unknown) => error,
        );
        assert.ok(refused instanceof AppError, `${name}: refused, not printed`);
        assert.equal(refused.code, 'template_incomplete', name);
        const issues = (refused.issues ?? []) as { path: string; code: string; reason?: string }[];
        assert.ok(
          issues.some(
            (issue) => issue.path.startsWith('totals.') && issue.code === 'hidden_fact' && issue.reason === reason,
          ),
          `${name}: a totals fact hidden_fact ${reason} in ${JSON.stringify(issues)}`,
        );
      }
      assert.ok(renderer.ready(), 'the pool keeps serving');
    },
  );

  test('prints a design that hides nothing, at 1 and 200 lines', { timeout: 120_000 }, async () => {
    for (const lines of [1, 200]) {
      const { pages } = await renderer.renderPdf(withDesign(invoiceWithItems(lines), HOUSE_STYLE));
      assert.ok(pages >= 1, `${lines} lines printed`);
    }
  });
});
