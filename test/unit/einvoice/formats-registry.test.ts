import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { BATCH_FORMAT_NAMES } from '../../../src/batch/batchFormats.js';
import { loadConfig } from '../../../src/config.js';
import { eInvoiceXml } from '../../../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_EINVOICE } from '../../../src/einvoice/example.js';
import type { FormatModule } from '../../../src/einvoice/formats/format.js';
import {
  FORMATS,
  OWN_SYNTAX_FORMATS,
  OWN_SYNTAX_READERS,
  operationIdOf,
} from '../../../src/einvoice/formats/registry.js';
import { inspectEInvoice } from '../../../src/einvoice/inbound/inspect.js';
import { checkEInvoice, prepareProfiledEInvoice } from '../../../src/einvoice/prepareEInvoice.js';
import { EInvoiceRequestSchema } from '../../../src/einvoice/requestSchema.js';
import { EInvoiceValidationSchema } from '../../../src/einvoice/validationReport.js';
import { InputRejected } from '../../../src/errors.js';
import { operationList } from '../../../src/operations/operationList.js';
import { PROJECT_ROOT } from '../../../src/render/templates.js';

/**
 * What a format module of src/einvoice/formats/registry.ts gets from its one registry line, checked
 * on the service's real wiring (operations, prices, batch formats, the request and validate
 * schemas, inspect), and that no code outside src/einvoice/formats/ names a format: a module whose
 * route, price, report or recognition did not follow from its line fails here.
 */
const MODULES = FORMATS as readonly FormatModule[];

test("each module's example passes its checks, and written in each XML syntax it writes, inspect recognises it as its own", () => {
  for (const format of MODULES) {
    if (!format.example) continue;
    assert.deepEqual(checkEInvoice(format.example).issues, [], format.id);
    for (const syntax of (['cii', 'ubl'] as const).filter((xml) => format.writes.includes(xml))) {
      const { prepared, profile } = prepareProfiledEInvoice(format.example, syntax);
      const answer = inspectEInvoice(eInvoiceXml(prepared, syntax, profile), 'xml');
      assert.equal(answer.reissue.profile, format.id, `${format.id} as ${syntax}`);
      assert.equal(answer.customization.id, format.specification, `${format.id} as ${syntax}`);
    }
  }
});

test("a writer's route is an operation, priced by default, with its batch format, answering its example", async () => {
  assert.ok(OWN_SYNTAX_FORMATS.length > 0);
  const operations = operationList();
  const prices = loadConfig({}).PRICES;
  for (const format of OWN_SYNTAX_FORMATS) {
    const operation = operations.find((row) => row.path === format.writer.route);
    assert.ok(operation, `${format.id}: its route is a row of the operation list`);
    assert.equal(operation.operationId, operationIdOf(format.writer.route));
    assert.equal(operation.summary, format.writer.summary);
    assert.ok(Number(prices[operation.operationId]) > 0, `${format.id}: its route is paid by default`);
    assert.ok((BATCH_FORMAT_NAMES as readonly string[]).includes(format.id), `${format.id}: a batch format`);
    // The route's work: its example checked and written, and marked when paid with test money.
    const parsed = operation.request!.parse(format.example, { today: '2026-06-01' });
    const answer = async (specimen: boolean) =>
      (await operation.handle!(parsed as never, { signal: AbortSignal.timeout(10_000), specimen })) as {
        body: Buffer;
        headers: Record<string, string>;
      };
    const [plain, specimen] = [await answer(false), await answer(true)];
    assert.ok(plain.body.length > 100, format.id);
    assert.match(plain.headers['Content-Disposition']!, /^attachment; filename="[^"]+\.xml"$/);
    assert.notDeepEqual(specimen.body, plain.body, `${format.id}: a specimen is marked`);
  }
});

test("a module's own request object is a field of the request, refused under another profile, reported by validate", () => {
  const requestFields = Object.keys(EInvoiceRequestSchema.pipe[0].entries);
  const reportFields = Object.keys(EInvoiceValidationSchema.entries);
  const withOwn = MODULES.filter((format) => format.checks?.own);
  assert.ok(withOwn.length > 0);
  for (const format of withOwn) {
    assert.ok(requestFields.includes(format.id), `${format.id}: its object is a request field`);
    const report = format.checks!.own!.report;
    if (report) assert.ok(reportFields.includes(report.key), `${format.id}: validate's ${report.key}`);
    assert.throws(
      () => checkEInvoice({ ...EXAMPLE_EINVOICE, [format.id]: {} }),
      (error: unknown) =>
        error instanceof InputRejected &&
        error.issues?.some((issue) => issue.path === format.id && issue.code === 'unknown_property') === true,
      format.id,
    );
  }
});

test('a module lists the official rule sets its checks follow, and the fields they ask for', () => {
  for (const format of MODULES) {
    assert.ok(format.ruleSets.length > 0, format.id);
    if (format.checks?.rules?.length || format.checks?.own) assert.ok(format.requiredFields.length > 0, format.id);
  }
});

test('every own-syntax reader has a marker and a description for einvoice_unknown_root', () => {
  assert.ok(OWN_SYNTAX_READERS.length > 0);
  for (const reader of OWN_SYNTAX_READERS) {
    assert.ok(reader.marker.length > 5);
    assert.ok(reader.describe.length > 5);
  }
});

const SRC = join(PROJECT_ROOT, 'src');
const FORMATS_DIR = join(SRC, 'einvoice', 'formats');
const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );

test('code outside src/einvoice/formats/ imports no format folder and names no format or syntax of its own', () => {
  const folders = readdirSync(FORMATS_DIR, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const folderImport = new RegExp(`from '[^']*/formats/(${folders.map((folder) => folder.name).join('|')})/`);
  // Ids that are no language code ('fr' is French too) and the syntaxes of formats' own.
  const names = [
    ...MODULES.map((format) => format.id).filter((id) => id.length > 2),
    ...MODULES.flatMap((format) => format.writes).filter((syntax) => !['cii', 'ubl', 'factur-x'].includes(syntax)),
  ];
  const literal = new RegExp(`['\`](${[...new Set(names)].join('|')})['\`]`);
  const found = sourceFiles(SRC)
    .filter((file) => !file.startsWith(FORMATS_DIR))
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, at) =>
          !/^\s*(\/\/|\*|\/\*)/.test(line) && (folderImport.test(line) || literal.test(line))
            ? [`${relative(SRC, file)}:${at + 1}: ${line.trim()}`]
            : [],
        ),
    );
  assert.deepEqual(found, []);
});
