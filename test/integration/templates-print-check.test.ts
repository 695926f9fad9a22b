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
import { designReferences } from '../../src/settings.js';
import { preparedReferences } from '../../src/templates/contract/referenceInvoices.js';
import puppeteer from 'puppeteer-core';
import { builtinPackage } from '../../src/render/builtinPackages.js';
import { chromiumArgs } from '../../src/render/browser.js';
import { findChromium, headlessMode } from '../../src/render/chromiumPath.js';
import { CSP_META } from '../../src/render/designPage.js';
import { lockDownPage } from '../../src/render/lockDownPage.js';
import { layOutHtml, openPrintablePage, printHtml } from '../../src/render/printPage.js';
import { printParams } from '../../src/render/printOptions.js';
import { askedFacts, factsMissingFromText } from '../../src/render/textOnPage.js';
import { HOUSE_STYLE } from '../fixtures/housePackages.js';
import { GERMAN_MIXED_RATE } from '../fixtures/realWorldInvoices.js';
import { invoiceWithItems } from '../fixtures/invoices.js';
import { hidingPackages } from '../reliability/support/hidingPackages.js';

let renderer: Renderer;
const events: { event?: string; check?: string; why?: string }[] = [];
before(async () => {
  renderer = await createRenderer({ poolSize: 1, designReferences, log: (event) => events.push(event) });
});
after(async () => {
  await renderer?.close();
});

const withDesign = (invoice: Parameters<typeof prepareInvoice>[0], pkg: object, fromStore = false) => {
  const stored = storedForm(pkg as TemplatePackage);
  return { ...prepareInvoice(invoice), design: { id: templateId(stored), package: stored, stored: fromStore } };
};
const withDesignOf = (prepared: ReturnType<typeof prepareInvoice>, pkg: object) => {
  const stored = storedForm(pkg as TemplatePackage);
  return { ...prepared, design: { id: templateId(stored), package: stored } };
};
const lastCheck = () => events.filter((event) => event.event === 'design_check').at(-1);

/** A locked-down printable page on a Chromium of its own (as the renderer prepares one), closed after `use`. */
async function onPrintablePage(use: (printable: Awaited<ReturnType<typeof openPrintablePage>>) => Promise<void>) {
  const browser = await puppeteer.launch({
    executablePath: findChromium(),
    headless: headlessMode(findChromium()),
    pipe: true,
    args: chromiumArgs(true),
  });
  try {
    const page = await browser.newPage();
    await lockDownPage(page);
    await use(await openPrintablePage(page));
  } finally {
    await browser.close();
  }
}

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

  test(
    "a stored design: a covered invoice on the text's check, one with a block no reference invoice took in full",
    { timeout: 120_000 },
    async () => {
      // The notes fade to nothing when a logo is there; no reference invoice has one.
      const notes = builtinPackage('classic').partials.notes!.replace(
        '<p lang="{{notes.lang}}"',
        '<p class="{{#if @root.logo}}faded{{/if}}" lang="{{notes.lang}}"',
      );
      const fading = { css: '.faded { opacity: 0; }', partials: { notes } };
      await renderer.renderPdf(withDesign(EXAMPLE_INVOICE, fading, true));
      assert.match(lastCheck()?.why ?? '', /first print/, 'the first print is checked in full');
      // Its coverage is made one reference fill per turn of the event loop.
      for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
      const { pages } = await renderer.renderPdf(withDesign(EXAMPLE_INVOICE, fading, true));
      assert.equal(pages, 1);
      assert.equal(lastCheck()?.check, 'text', "covered: the text's check");
      const refused = await renderer
        .renderPdf(withDesign({ ...EXAMPLE_INVOICE, logo: GERMAN_MIXED_RATE.logo }, fading, true))
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      assert.equal(lastCheck()?.check, 'full');
      assert.match(lastCheck()?.why ?? '', /^block /);
      assert.ok(refused instanceof AppError, 'refused, not printed');
      assert.deepEqual(
        (refused.issues as { path: string; code: string; reason?: string }[]).map((issue) => [
          issue.path,
          issue.code,
          issue.reason,
        ]),
        [['notes', 'hidden_fact', 'opacity_zero']],
      );
    },
  );

  test(
    "the text's check finds what the written page does not hold, outside hidden elements",
    { timeout: 60_000 },
    async () => {
      await onPrintablePage(async (printable) => {
        await layOutHtml(
          printable,
          '<!doctype html><html><head><title>INV-7</title><style>/* 1,000.00 */ @media screen { body { display: none; } }</style></head>' +
            '<body><p>Invoice  INV-7</p><template><p>Due 2026-12-02</p></template><p hidden>EUR</p>' +
            '<p>Total <b>1,000.00</b>\n EUR</p><svg><path d="M0 0h1v1H0z"/></svg></body></html>',
        );
        const facts = [
          { field: 'invoice_number', text: 'Invoice INV-7' },
          { field: 'due_date', text: '2026-12-02' },
          { field: 'totals.total', text: 'Total 1,000.00 EUR' },
          { field: 'currency', text: 'EUR' },
          { field: 'payment.qr', drawing: 'M0 0h1v1H0z' },
          { field: 'verifactu.qr', drawing: 'M1 1h1v1H1z' },
          { field: 'notes', text: '1,000.00 */' },
        ];
        const missing = await factsMissingFromText(printable.session, askedFacts(facts));
        assert.deepEqual(
          missing.map((fact) => fact.field),
          ['due_date', 'notes', 'verifactu.qr'],
          'in a template or a style sheet is not on the page; text across elements and white space counts',
        );
        // A body with nothing to skip is read in one call (textContent): the same answers, a fact
        // found before the one searched last included (each search starts where the last one hit).
        await layOutHtml(
          printable,
          '<!doctype html><html><head><title>Due 2026-12-02</title><style>/* 1,000.00 */</style></head>' +
            '<body><p>Invoice\u00a0 INV-7</p><p>Total <b>1,000.00</b>\n EUR</p><svg><path d="M0 0h1v1H0z"/></svg></body></html>',
        );
        const inOrder = await factsMissingFromText(
          printable.session,
          askedFacts([facts[2]!, facts[0]!, facts[1]!, facts[3]!, facts[4]!, facts[5]!, facts[6]!]),
        );
        assert.deepEqual(
          inOrder.map((fact) => fact.field),
          ['due_date', 'notes', 'verifactu.qr'],
          'the total is searched first, then the number before it; the title and style sheet are not the page',
        );
      });
    },
  );

  test('a check sent behind the document reads that document, print after print', { timeout: 60_000 }, async () => {
    await onPrintablePage(async (printable) => {
      // A long document and a short one in turn: the check (printPage.ts sends it without
      // waiting for the document's answer) must never read the one written before.
      const page_ = (lines: number) =>
        `<!doctype html><html><head></head><body>${'<p>Line <b>1.00</b> EUR</p>'.repeat(lines)}<p>Total ${lines}</p></body></html>`;
      for (let round = 0; round < 12; round++) {
        const lines = round % 2 === 0 ? 2000 : 3;
        const other = round % 2 === 0 ? 3 : 2000;
        let seen: string[] = [];
        await printHtml(printable, page_(lines), printParams('A4', false), async (session) => {
          const missing = await factsMissingFromText(
            session,
            askedFacts([
              { field: 'totals.total', text: `Total ${lines}` },
              { field: 'other', text: `Total ${other}` },
            ]),
          );
          seen = missing.map((fact) => fact.field);
        });
        assert.deepEqual(seen, ['other'], `round ${round}: the check read the document of ${lines} lines`);
      }
    });
  });

  test(
    "a design's content security policy is written once per render page and holds for every later document",
    { timeout: 60_000 },
    async () => {
      await onPrintablePage(async (printable) => {
        // A style sheet imported from a data: URL: nothing leaves the page, but DESIGN_CSP
        // (style-src 'unsafe-inline' only) refuses it, so it shows whether the policy is in force.
        const importing = (head: string) =>
          `<!doctype html><html><head>${head}<style>@import url("data:text/css,p{color:rgb(1,2,3)}");</style></head><body><p>Total</p></body></html>`;
        const seen = async () =>
          (
            await printable.session.send('Runtime.evaluate', {
              expression:
                "[getComputedStyle(document.querySelector('p')).color, document.querySelectorAll('meta[http-equiv]').length]",
              returnByValue: true,
            })
          ).result.value as [string, number];
        await layOutHtml(printable, importing(''));
        assert.deepEqual(await seen(), ['rgb(1, 2, 3)', 0], 'without the policy, the import applies');
        assert.equal(printable.designCspHeld, false);
        await layOutHtml(printable, importing(CSP_META));
        assert.deepEqual(
          await seen(),
          ['rgb(0, 0, 0)', 1],
          "the design's first page carries the policy, which refuses the import",
        );
        assert.equal(printable.designCspHeld, true);
        for (const head of [CSP_META, '']) {
          await layOutHtml(printable, importing(head));
          assert.deepEqual(
            await seen(),
            ['rgb(0, 0, 0)', 0],
            'later documents: written without the meta, still under the policy',
          );
        }
      });
    },
  );

  test("the text's check reads the document's body, whatever its elements are named", { timeout: 60_000 }, async () => {
    await onPrintablePage(async (printable) => {
      // <img name="body"> shadows document.body (asserted below): the check takes the body from
      // Document.prototype (textOnPage.ts), else it would read the image and find nothing.
      await layOutHtml(
        printable,
        '<!doctype html><html><head></head><body><img name="body"><img name="querySelector"><p>Total 1,000.00 EUR</p></body></html>',
      );
      const { result } = await printable.session.send('Runtime.evaluate', {
        expression: 'document.body.localName',
        returnByValue: true,
      });
      assert.equal(result.value, 'img', "the name does shadow the document's own body");
      const missing = await factsMissingFromText(
        printable.session,
        askedFacts([
          { field: 'totals.total', text: 'Total 1,000.00 EUR' },
          { field: 'currency', text: 'USD' },
        ]),
      );
      assert.deepEqual(
        missing.map((fact) => fact.field),
        ['currency'],
      );
    });
  });

  test(
    "the upload's look refuses hiding line 57 and clipping long descriptions on the 200-line reference invoice",
    { timeout: 120_000 },
    async () => {
      const many = preparedReferences().find(({ id }) => id === 'many-lines')!.prepared;
      const look = async (css: string) => {
        const [unseen] = await renderer.designUnseenFacts!([withDesignOf(many, { css })]);
        return unseen!.map(({ fact, reason }) => `${fact.field} ${reason}`);
      };
      const line57 = await look('.items tbody:not(.items__tail) tr:nth-child(57) td { opacity: 0; }');
      // Its amount is also another line's unit price, visible there: a fact counts where it shows once.
      assert.ok(line57.includes('line_items[56].description opacity_zero'), JSON.stringify(line57));
      assert.ok(!line57.some((found) => !found.startsWith('line_items[56].')), 'only line 57');
      const clipped = await look(
        '.items__description { display: block; line-height: 1.3; height: 3em; overflow: hidden; }',
      );
      assert.ok(
        clipped.includes('line_items[6].description clipped'),
        `the first long one: ${JSON.stringify(clipped)}`,
      );
      assert.ok(
        !clipped.includes('line_items[0].description clipped'),
        `the short ones fit: ${clipped.slice(0, 12).join(', ')}`,
      );
    },
  );

  test('prints a design that hides nothing, at 1 and 200 lines', { timeout: 120_000 }, async () => {
    for (const lines of [1, 200]) {
      const { pages } = await renderer.renderPdf(withDesign(invoiceWithItems(lines), HOUSE_STYLE));
      assert.ok(pages >= 1, `${lines} lines printed`);
    }
  });
});
