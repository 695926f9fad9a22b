// Hostile customer templates (issue 49, "Bad input"): each package that would run, load, embed or
// leak something is refused at upload with the file and the rule, nothing stored; what is accepted
// prints through the preview with no request leaving the page and request text printed as text.
// The real app, the real renderer, a loopback canary that counts every connection made to it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { startCanary, type Canary } from '../fixtures/canary.js';
import { builtinPackage } from '../../src/render/builtinPackages.js';
import { HOUSE_STYLE } from '../fixtures/housePackages.js';
import { invoiceWithItems } from '../fixtures/invoices.js';
import { GERMAN_MIXED_RATE } from '../fixtures/realWorldInvoices.js';
import { normalizeText, pdfPages } from '../fixtures/pdfTools.js';
import { postJson, startTestApp, type TestApp } from '../support/testApp.js';
import { figure } from './harness.js';
import { refusedPackages } from './support/hostilePackages.js';
import { hidingPackages } from './support/hidingPackages.js';
import { probeInvoice, ssrfProbes } from './support/probes.js';

let renderer: Renderer;
let app: TestApp;
let canary: Canary;

before(
  async () => {
    canary = await startCanary();
    renderer = await createRenderer({ poolSize: 1 });
    // Free routes unthrottled: the suite sends each hostile package to PUT, check and preview.
    app = await startTestApp(
      { COMPUTE_THREADS: '1', RATE_LIMIT_CLIENT_BURST: '100000', RATE_LIMIT_CLIENT_PER_SECOND: '100000' },
      { renderer },
    );
  },
  { timeout: 60_000 },
);
after(async () => {
  await app?.close();
  await renderer?.close();
  await canary?.close();
});

type Issue = {
  path: string;
  code: string;
  line?: number;
  column?: number;
  reason?: string;
  invoice?: string;
  message: string;
};
type ErrorBody = { error: { code: string; issues: Issue[] } };

const put = (body: unknown) =>
  fetch(`${app.url}/v1/templates`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
const pdfText = async (response: Response) => pdfPages(Buffer.from(await response.arrayBuffer())).join('\n');

describe('hostile template packages', () => {
  test(
    'each is refused by PUT, check and preview with the file, the rule and the line; nothing stored, nothing fetched',
    { timeout: 120_000 },
    async () => {
      const cases = refusedPackages(canary.origin);
      for (const { name, pkg, expect } of cases) {
        const response = await put(pkg);
        const body = (await response.json()) as ErrorBody;
        assert.equal(response.status, 400, `${name}: ${JSON.stringify(body)}`);
        assert.equal(body.error.code, 'template_invalid', name);
        for (const [path, code, line] of expect) {
          const found = body.error.issues.find((issue) => issue.path === path && issue.code === code);
          assert.ok(found, `${name}: ${path} ${code} in ${JSON.stringify(body.error.issues)}`);
          if (line !== undefined) assert.equal(found.line, line, `${name}: line of ${code}`);
        }
        const report = (await (await postJson(`${app.url}/v1/templates/check`, pkg)).json()) as {
          ok: boolean;
          id: string;
        };
        assert.equal(report.ok, false, name);
        assert.equal((await fetch(`${app.url}/v1/templates/${report.id}`)).status, 404, `${name}: not stored`);
        const preview = await postJson(`${app.url}/v1/templates/preview`, { design: pkg, invoice: EXAMPLE_INVOICE });
        assert.equal(preview.status, 400, name);
        assert.equal(((await preview.json()) as ErrorBody).error.code, 'template_invalid', name);
      }
      await canary.settle();
      assert.equal(canary.connections(), 0, 'no connection reached the canary');
      figure('templates', `${cases.length} hostile packages refused at PUT, check and preview`);
    },
  );

  test('a package over the size limits is a 400 validation_failed naming the file, nothing stored', async () => {
    const css = `p { color: red; }\n${'/* padding */\n'.repeat(5000)}`; // 70 KiB, over the 64 KiB of css
    const partials = Object.fromEntries(
      ['header', 'notes', 'totals', 'stamp', 'page-footer', 'parties', 'party', 'line-items', 'line-item'].map(
        (name) => [name, `<p>${'x'.repeat(31_000)}</p>`],
      ),
    ); // 9 partials under 32 KiB each, 279 KiB together: over the 256 KiB of a package
    for (const [pkg, path] of [
      [{ css }, 'css'],
      [{ partials }, ''],
    ] as const) {
      const response = await put(pkg);
      assert.equal(response.status, 400);
      const { error } = (await response.json()) as ErrorBody;
      assert.equal(error.code, 'validation_failed');
      assert.deepEqual(
        error.issues.map((issue) => [issue.path, issue.code]),
        [[path, 'invalid_value']],
        JSON.stringify(error.issues),
      );
    }
    const { id } = (await (await postJson(`${app.url}/v1/templates/check`, { css: 'p { color: red; }' })).json()) as {
      id: string;
    };
    assert.equal((await fetch(`${app.url}/v1/templates/${id}`)).status, 404, 'a package only checked is not stored');
  });

  test(
    'a recursive partial, nested {{#each}} and partial fan-out are refused; deep nesting is filled; the pool keeps serving',
    { timeout: 120_000 },
    async () => {
      const refusal = async (pkg: unknown) => {
        const started = performance.now();
        const response = await put(pkg);
        const body = (await response.json()) as ErrorBody;
        return { status: response.status, body, ms: Math.round(performance.now() - started) };
      };
      const recursive = await refusal({ partials: { notes: '<p>{{> notes}}</p>' } });
      assert.equal(recursive.status, 400, JSON.stringify(recursive.body));
      assert.deepEqual(
        recursive.body.error.issues.map((issue) => [issue.path, issue.code]),
        [['partials.notes', 'fill_failed']],
      );
      // Three nested loops over the 200-line reference invoice: 8 million boxes, 41 s of CPU and
      // 1.4 GB before the fill budget (src/render/fillBudget.ts); partials that call partials 1000× each.
      const lines3 = { partials: { notes: `${'{{#each @root.lines}}'.repeat(3)}<i></i>${'{{/each}}'.repeat(3)}` } };
      const fanOut = {
        partials: {
          notes: '{{> stamp}}'.repeat(1000),
          stamp: '{{> page-footer}}'.repeat(1000),
          'page-footer': '<i></i>',
        },
      };
      for (const [name, pkg] of [
        ['nested each', lines3],
        ['partial fan-out', fanOut],
      ] as const) {
        const { status, body, ms } = await refusal(pkg);
        assert.equal(status, 400, `${name}: ${JSON.stringify(body)}`);
        assert.deepEqual(
          body.error.issues.map((issue) => [issue.path, issue.code]),
          [['partials.notes', 'fill_too_large']],
          name,
        );
        figure('templates', `${name} refused as fill_too_large in ${ms} ms`);
      }
      // 800 nested blocks (25 KiB, with classic's notes under the 32 KiB partial limit) fill and pass the contract.
      const depth = 800;
      const deep = `${'{{#if notes}}<div>'.repeat(depth)}{{notes.text}}${'</div>{{/if}}'.repeat(depth)}`;
      const nested = await refusal({ partials: { notes: `${deep}\n${builtinPackage('classic').partials.notes!}` } });
      assert.equal(nested.status, 200, JSON.stringify(nested.body));
      figure('templates', `${depth} nested blocks stored in ${nested.ms} ms`);
      const ok = await postJson(`${app.url}/v1/templates/preview`, { design: HOUSE_STYLE, invoice: EXAMPLE_INVOICE });
      assert.equal(ok.status, 200);
      assert.ok(renderer.ready(), 'the pool keeps serving');
    },
  );

  test(
    'a loop bomb only an invoice with a logo takes passes the contract and is refused at print time, nothing printed',
    { timeout: 120_000 },
    async () => {
      const bomb = `{{#if @root.logo}}${'{{#each @root.lines}}'.repeat(3)}<i></i>${'{{/each}}'.repeat(3)}{{/if}}`;
      const stored = await put({ partials: { notes: `${bomb}\n${builtinPackage('classic').partials.notes!}` } });
      assert.equal(stored.status, 200, 'no reference invoice has a logo');
      const { id } = (await stored.json()) as { id: string };
      const started = performance.now();
      const refused = await postJson(`${app.url}/v1/templates/preview`, {
        design: id,
        invoice: invoiceWithItems(200, { logo: GERMAN_MIXED_RATE.logo }),
      });
      const ms = Math.round(performance.now() - started);
      const { error } = (await refused.json()) as ErrorBody;
      assert.equal(refused.status, 400, JSON.stringify(error));
      assert.equal(error.code, 'template_invalid');
      assert.deepEqual(
        error.issues.map((issue) => [issue.path, issue.code]),
        [['design', 'fill_failed']],
      );
      figure('templates', `print-time loop bomb refused in ${ms} ms`);
      assert.ok(renderer.ready(), 'the pool keeps serving');
    },
  );

  test(
    'request text with markup and URLs prints as text through a customer design: no request, no file read',
    { timeout: 120_000 },
    async () => {
      const probes = ssrfProbes(canary.origin);
      const compact = (text: string) => normalizeText(text).replace(/\s+/g, '');
      const passwd = readFileSync('/etc/passwd', 'utf8')
        .split('\n')
        .filter((line) => line.length > 8);
      for (const round of [0, 1]) {
        const { invoice } = probeInvoice(probes, round);
        const response = await postJson(`${app.url}/v1/templates/preview`, { design: HOUSE_STYLE, invoice });
        assert.equal(response.status, 200, await response.clone().text());
        const text = compact(await pdfText(response));
        assert.ok(text.includes('PREVIEW'));
        for (const probe of probes.slice(0, 8)) assert.ok(text.includes(compact(probe)), `printed as text: ${probe}`);
        assert.equal(passwd.filter((line) => text.includes(compact(line))).length, 0, 'nothing of /etc/passwd');
      }
      await canary.settle();
      assert.equal(canary.connections(), 0, 'no connection reached the canary');
    },
  );

  test(
    'a package that hides a fact is refused at upload by technique, with the field, the reference invoice and why; nothing stored',
    { timeout: 300_000 },
    async () => {
      for (const { name, pkg, reason } of hidingPackages) {
        const response = await put(pkg);
        const body = (await response.json()) as ErrorBody;
        assert.equal(response.status, 400, `${name}: ${JSON.stringify(body)}`);
        assert.equal(body.error.code, 'template_incomplete', name);
        const hidden = body.error.issues.filter((issue) => issue.code === 'hidden_fact');
        const total = hidden.find((issue) => issue.path.startsWith('totals.') && issue.reason === reason);
        assert.ok(total, `${name}: a totals fact hidden_fact ${reason} in ${JSON.stringify(body.error.issues)}`);
        assert.ok(total.invoice && total.message.length > 0, `${name}: names the reference invoice and says why`);
        const report = (await (await postJson(`${app.url}/v1/templates/check`, pkg)).json()) as ErrorBody['error'] & {
          ok: boolean;
          id: string;
        };
        assert.equal(report.ok, false, name);
        assert.ok(
          report.issues.some((issue) => issue.code === 'hidden_fact' && issue.reason === reason),
          name,
        );
        assert.equal((await fetch(`${app.url}/v1/templates/${report.id}`)).status, 404, `${name}: not stored`);
      }
      figure('templates', `${hidingPackages.length} packages hiding the totals refused as hidden_fact`);
    },
  );

  test(
    'a design that hides a fact only for an invoice with a logo is refused at print time, nothing printed',
    { timeout: 120_000 },
    async () => {
      // The notes fade to nothing when a logo is there; no reference invoice has one.
      const notes = builtinPackage('classic').partials.notes!.replace(
        '<p lang="{{notes.lang}}"',
        '<p class="{{#if @root.logo}}faded{{/if}}" lang="{{notes.lang}}"',
      );
      const stored = await put({ css: '.faded { opacity: 0; }', partials: { notes } });
      assert.equal(stored.status, 200, await stored.clone().text());
      const { id } = (await stored.json()) as { id: string };
      const shown = await postJson(`${app.url}/v1/templates/preview`, { design: id, invoice: EXAMPLE_INVOICE });
      assert.equal(shown.status, 200, 'without a logo the notes show');
      const withLogo = { ...EXAMPLE_INVOICE, logo: GERMAN_MIXED_RATE.logo };
      assert.ok(withLogo.notes, 'the example has notes');
      const refused = await postJson(`${app.url}/v1/templates/preview`, { design: id, invoice: withLogo });
      const { error } = (await refused.json()) as ErrorBody;
      assert.equal(refused.status, 400, JSON.stringify(error));
      assert.equal(error.code, 'template_incomplete');
      assert.deepEqual(
        error.issues.map((issue) => [issue.path, issue.code, issue.reason]),
        [['notes', 'hidden_fact', 'opacity_zero']],
      );
      assert.ok(renderer.ready(), 'the pool keeps serving');
    },
  );
});
