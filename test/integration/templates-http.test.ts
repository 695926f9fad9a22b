import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXAMPLE_EINVOICE } from '../../src/einvoice/example.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import type { PaidCall } from '../../src/operations/paidCall.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { pdfPages } from '../fixtures/pdfTools.js';
import {
  HOUSE_STYLE,
  NOTES_DROPPED_WITH_LOGO,
  UNKNOWN_FIELD_WITH_LOGO,
  WITHOUT_TOTALS,
} from '../fixtures/housePackages.js';
import { GERMAN_MIXED_RATE } from '../fixtures/realWorldInvoices.js';
import { postJson, startTestApp, type TestApp } from '../support/testApp.js';

/**
 * The template routes over HTTP (docs/templates.md): a built-in design as a package, PUT and GET of
 * a stored design, its refusals (template_invalid with file, line and column; template_incomplete by
 * field and reference invoice), invoices printed with it (refused before payment when unknown), the
 * print-time check and the preview.
 */
let renderer: Renderer;
let free: TestApp;
let priced: TestApp;
let gateCalls = 0;
/** A spy in place of the paid call (it checks nothing): counts the calls that reached payment, and answers 402. */
const spyPaidCall: PaidCall = async () => {
  gateCalls++;
  return { kind: 'answered', answer: { status: 402, body: { error: { code: 'spy_reached_payment', message: '' } } } };
};

before(
  async () => {
    renderer = await createRenderer({ poolSize: 1 });
    free = await startTestApp(
      { PRICES: 'v1_invoice_pdf=0,v1_e_invoice_factur_x_pdf=0,v1_invoices_zip=0', COMPUTE_THREADS: '1' },
      { renderer },
    );
    priced = await startTestApp(
      { COMPUTE_THREADS: '0' },
      {
        renderer,
        payment: {
          terms: { scheme: 'exact', network: 'eip155:8453', asset: '0x0', payTo: '0x0' },
          call: spyPaidCall,
          offers: () => [],
        },
      },
    );
  },
  { timeout: 60_000 },
);
after(async () => {
  await free?.close();
  await priced?.close();
  await renderer?.close();
});

const put = (app: TestApp, body: unknown) =>
  fetch(`${app.url}/v1/templates`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
type ErrorBody = {
  error: { code: string; issues: { path: string; code: string; line?: number; column?: number; invoice?: string }[] };
};

describe('templates over HTTP', () => {
  test('GET /v1/templates/classic answers the complete package', async () => {
    const response = await fetch(`${free.url}/v1/templates/classic`);
    assert.equal(response.status, 200);
    const pkg = (await response.json()) as {
      name: string;
      data_version: number;
      html: string;
      partials: Record<string, string>;
    };
    assert.equal(pkg.name, 'classic');
    assert.equal(pkg.data_version, 1);
    assert.match(pkg.html, /\{\{> header\}\}/);
    for (const name of ['header', 'totals', 'notes', 'stamp', 'page-footer']) assert.ok(pkg.partials[name], name);
    const modern = (await (await fetch(`${free.url}/v1/templates/modern`)).json()) as {
      partials: Record<string, string>;
    };
    assert.notEqual(modern.partials.header, pkg.partials.header, "modern's own header");
  });

  test(
    'PUT stores a house style under its id (the same package, the same id); GET answers it; an invoice prints with it',
    { timeout: 120_000 },
    async () => {
      const response = await put(free, HOUSE_STYLE);
      assert.equal(response.status, 200, await response.clone().text());
      const { id, expires_in_seconds } = (await response.json()) as { id: string; expires_in_seconds: number };
      assert.match(id, /^sha256:[0-9a-f]{64}$/);
      assert.equal(expires_in_seconds, 30 * 24 * 3600);
      const again = (await (
        await put(free, { partials: HOUSE_STYLE.partials, css: HOUSE_STYLE.css, data_version: 1 })
      ).json()) as { id: string };
      assert.equal(again.id, id);
      const stored = (await (await fetch(`${free.url}/v1/templates/${id}`)).json()) as { css: string };
      assert.equal(stored.css, HOUSE_STYLE.css);
      assert.equal((await fetch(`${free.url}/v1/templates/sha256:${'0'.repeat(64)}`)).status, 404);

      const pdf = await postJson(`${free.url}/v1/invoice.pdf`, { ...EXAMPLE_INVOICE, design: id });
      assert.equal(pdf.status, 200);
      const text = pdfPages(Buffer.from(await pdf.arrayBuffer())).join('\n');
      assert.match(text, /Northwind house style/);
      assert.match(text, /INV-2026-0042/);
      const hybrid = await postJson(`${free.url}/v1/e-invoice/factur-x.pdf`, { ...EXAMPLE_EINVOICE, design: id });
      assert.equal(hybrid.status, 200);
      assert.match(pdfPages(Buffer.from(await hybrid.arrayBuffer())).join('\n'), /Northwind house style/);
      const zip = await postJson(`${free.url}/v1/invoices.zip`, { invoices: [{ ...EXAMPLE_INVOICE, design: id }] });
      assert.equal(zip.status, 200);
    },
  );

  test('a package with script, handlers, remote CSS or unknown helpers is a 400 template_invalid naming file, line and column', async () => {
    const response = await put(free, {
      css: 'h1 { color: red; }\n@import "https://evil.example/x.css";\nbody { background: url(https://evil.example/p.png); }',
      partials: {
        header:
          '<header>\n  <img src="x" onerror="alert(1)">{{{seller.name}}}{{lookup seller "name"}}\n<script>alert(1)</script></header>',
      },
    });
    assert.equal(response.status, 400);
    const { error } = (await response.json()) as ErrorBody;
    assert.equal(error.code, 'template_invalid');
    const found = error.issues.map((issue) => `${issue.path}:${issue.code}:${issue.line}:${issue.column}`);
    for (const expected of [
      'css:css_import:2:1',
      'css:css_url:3:20',
      'partials.header:event_handler:2:16',
      'partials.header:triple_stash:2:35',
      'partials.header:unknown_helper:2:52',
      'partials.header:script:3:1',
    ])
      assert.ok(found.includes(expected), `${expected} in ${found.join(' ')}`);
  });

  test('a package that drops the totals is a 400 template_incomplete naming the facts and the reference invoice', async () => {
    const response = await put(free, WITHOUT_TOTALS);
    assert.equal(response.status, 400);
    const { error } = (await response.json()) as ErrorBody;
    assert.equal(error.code, 'template_incomplete');
    assert.ok(error.issues.some((issue) => issue.path === 'totals.total' && issue.invoice === 'one-line'));
    const report = (await (await postJson(`${free.url}/v1/templates/check`, WITHOUT_TOTALS)).json()) as {
      ok: boolean;
      issues: { path: string; code: string }[];
    };
    assert.equal(report.ok, false);
    assert.ok(report.issues.some((issue) => issue.path === 'totals.total' && issue.code === 'missing_fact'));
  });

  test('an unknown design id is a 400 at "design" before any payment; a known one goes on to payment', async () => {
    const unknown = await postJson(`${priced.url}/v1/invoice.pdf`, {
      ...EXAMPLE_INVOICE,
      design: `sha256:${'1'.repeat(64)}`,
    });
    assert.equal(unknown.status, 400);
    const { error } = (await unknown.json()) as ErrorBody;
    assert.deepEqual(
      error.issues.map((issue) => [issue.path, issue.code]),
      [['design', 'unknown_design']],
    );
    assert.equal(gateCalls, 0);
    const { id } = (await (await put(priced, HOUSE_STYLE)).json()) as { id: string };
    assert.equal((await postJson(`${priced.url}/v1/invoice.pdf`, { ...EXAMPLE_INVOICE, design: id })).status, 402);
    assert.equal(gateCalls, 1);
  });

  test(
    'the print-time check refuses a design that drops a fact of this invoice (a 400, nothing printed)',
    { timeout: 60_000 },
    async () => {
      const stored = await put(free, NOTES_DROPPED_WITH_LOGO);
      assert.equal(stored.status, 200, 'no reference invoice has a logo: the contract passes');
      const { id } = (await stored.json()) as { id: string };
      const ok = await postJson(`${free.url}/v1/invoice.pdf`, { ...EXAMPLE_INVOICE, design: id });
      assert.equal(ok.status, 200);
      const refused = await postJson(`${free.url}/v1/invoice.pdf`, {
        ...GERMAN_MIXED_RATE,
        notes: 'Vielen Dank.',
        design: id,
      });
      assert.equal(refused.status, 400);
      const { error } = (await refused.json()) as ErrorBody;
      assert.equal(error.code, 'template_incomplete');
      assert.deepEqual(
        error.issues.map((issue) => issue.path),
        ['notes'],
      );
      assert.ok(renderer.ready(), 'the pool keeps serving');
    },
  );

  test(
    'the preview prints PREVIEW on every page, for a stored id or a package; the reference invoices are listed',
    { timeout: 60_000 },
    async () => {
      const references = (await (await fetch(`${free.url}/v1/templates/reference-invoices`)).json()) as {
        id: string;
      }[];
      assert.deepEqual(
        references.map((reference) => reference.id),
        [
          'one-line',
          'many-lines',
          'credit-note',
          'arabic',
          'japanese',
          'vat-rates',
          'qr-epc',
          'qr-swiss',
          'qr-pix',
          'qr-upi',
          'qr-usdc',
          'stamped',
        ],
      );
      const many = references.find((reference) => reference.id === 'many-lines') as unknown as { invoice: unknown };
      const response = await postJson(`${free.url}/v1/templates/preview`, {
        design: HOUSE_STYLE,
        invoice: many.invoice,
      });
      assert.equal(response.status, 200);
      const pages = pdfPages(Buffer.from(await response.arrayBuffer()));
      assert.ok(pages.length > 1);
      for (const page of pages) assert.match(page, /PREVIEW/);
      // The preview checks this invoice's facts on its printed page (not the 12 reference invoices).
      const bad = await postJson(`${free.url}/v1/templates/preview`, {
        design: WITHOUT_TOTALS,
        invoice: EXAMPLE_INVOICE,
      });
      assert.equal(bad.status, 400);
      const { error } = (await bad.json()) as ErrorBody;
      assert.equal(error.code, 'template_incomplete');
      assert.ok(error.issues.some((issue) => issue.path === 'totals.total' && issue.code === 'missing_fact'));
      // An inline package's files are checked as PUT checks them, and filled with this invoice.
      const unknownField = await postJson(`${free.url}/v1/templates/preview`, {
        design: { partials: { notes: '<p>{{no_such_field}}</p>' } },
        invoice: { ...EXAMPLE_INVOICE, notes: 'Thank you.' },
      });
      assert.equal(unknownField.status, 400);
      const invalid = ((await unknownField.json()) as ErrorBody).error;
      assert.equal(invalid.code, 'template_invalid');
      assert.deepEqual(
        invalid.issues.map((issue) => [issue.path, issue.code, issue.line, issue.column]),
        [['partials.notes', 'unknown_field', 1, 6]],
      );
    },
  );

  test(
    'a stored design that cannot be filled with one invoice is a 400 template_invalid at design, nothing printed',
    { timeout: 60_000 },
    async () => {
      const stored = await put(free, UNKNOWN_FIELD_WITH_LOGO);
      assert.equal(stored.status, 200, 'no reference invoice has a logo: every fill passes');
      const { id } = (await stored.json()) as { id: string };
      const refused = await postJson(`${free.url}/v1/invoice.pdf`, { ...GERMAN_MIXED_RATE, design: id });
      assert.equal(refused.status, 400);
      const { error } = (await refused.json()) as ErrorBody;
      assert.equal(error.code, 'template_invalid');
      assert.deepEqual(
        error.issues.map((issue) => [issue.path, issue.code]),
        [['design', 'fill_failed']],
      );
      assert.equal((await postJson(`${free.url}/v1/invoice.pdf`, { ...EXAMPLE_INVOICE, design: id })).status, 200);
      assert.ok(renderer.ready(), 'the pool keeps serving');
    },
  );
});
