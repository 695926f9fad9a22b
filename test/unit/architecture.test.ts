import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from '../../src/render/templates.js';

/**
 * The layers of docs/architecture.md, checked on the real import
 * graph of src/: an import goes down to a lower layer or stays inside its own part; never
 * sideways into a sibling part, never back up, and no file reaches itself through imports.
 */
const SRC = join(PROJECT_ROOT, 'src');

/** Each part of src/ and its layer; a part may import parts of lower layers only. */
const LAYERS: [part: string, layer: number][] = [
  ['errors.ts', 0],
  ['logger.ts', 0],
  ['lifecycle.ts', 0],
  ['metrics.ts', 0],
  // General readers of untrusted input: a strict XML reader, a PDF attachment scanner; no domain.
  ['xml', 0.5],
  ['pdf', 0.5],
  // Font files: what one is (fontkit) and its @font-face rule; knows no invoice.
  ['fonts', 0.5],
  ['invoice', 1],
  // Stored themes (validated data) and stored fonts, and their stores.
  ['themes', 1.5],
  // A general reader of CMS signed envelopes (.p7m): knows no invoice.
  ['cms', 1],
  ['helpers', 2],
  // EN 16931 XML and its rules: pure, on top of the invoice model.
  ['einvoice', 2],
  ['render', 2],
  ['payment', 2],
  // The batch of invoices: calls the single-invoice work (invoice/, einvoice/, render/), knows no
  // HTTP; its operation row (operations/) sits above it.
  ['batch', 2.5],
  // The generic worker pool: runs the job module it is given, knows no operation and no HTTP.
  ['compute', 3],
  // The operation list and the transport-free call core (parse on the pool, price, pay): knows no
  // transport; reaches the pool only through the function app.ts hands it.
  ['operations', 3],
  ['http', 4],
  ['config.ts', 5],
  ['app.ts', 6],
  ['settings.ts', 6],
  ['service.ts', 7],
  ['main.ts', 8],
];

/** Packages only one part may know (only http/ and app.ts know Koa, ...). */
const PACKAGE_OWNERS: [pattern: RegExp, parts: string[]][] = [
  [/^(koa|@koa\/|koa-body)/, ['http', 'app.ts', 'service.ts']],
  [/^puppeteer/, ['render']],
  [/^generic-pool/, ['render']],
  [/^(viem|@x402\/)/, ['payment']],
  [/^@modelcontextprotocol\//, ['http']],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?[^;]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g;

interface Edge {
  target: string;
  /** `import type`: erased at run time, so it can't make a load-order cycle (it still counts for layers). */
  typeOnly: boolean;
}

function importsOf(file: string): { specifier: string; typeOnly: boolean }[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => ({
    specifier: (match[2] ?? match[3])!,
    typeOnly: Boolean(match[1]),
  }));
}

const partOf = (file: string) => relative(SRC, file).split('/')[0]!;
const layerOf = (part: string) => LAYERS.find(([name]) => name === part)?.[1];
const resolveLocal = (from: string, specifier: string) => resolve(dirname(from), specifier).replace(/\.js$/, '.ts');

const files = sourceFiles(SRC);
// Source files only: data the code reads (data/*.json) is not a layer.
const graph = new Map<string, Edge[]>(
  files.map((file) => [
    file,
    importsOf(file)
      .filter(({ specifier }) => specifier.startsWith('.'))
      .map(({ specifier, typeOnly }) => ({ target: resolveLocal(file, specifier), typeOnly }))
      .filter(({ target }) => target.startsWith(SRC) && target.endsWith('.ts')),
  ]),
);

test('every part of src/ has a layer', () => {
  const unknown = [...new Set(files.map(partOf))].filter((part) => layerOf(part) === undefined);
  assert.deepEqual(unknown, [], 'add new parts of src/ to LAYERS');
});

test('imports go down a layer or stay inside their part', () => {
  const wrong: string[] = [];
  for (const [file, edges] of graph) {
    for (const { target } of edges) {
      const [from, to] = [partOf(file), partOf(target)];
      if (from === to) continue;
      if (!(layerOf(to)! < layerOf(from)!))
        wrong.push(`${relative(SRC, file)} → ${relative(SRC, target)} (layer ${layerOf(from)} → ${layerOf(to)})`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('helpers/ hold pure functions: their operation rows and transports are above them', () => {
  // The four helpers' rows (path, summary, call context) live in operations/helperOperations.ts;
  // a helper takes `today` as a plain argument rather than an operation's context.
  const wrong = [...graph]
    .filter(([file]) => partOf(file) === 'helpers')
    .flatMap(([file, edges]) =>
      edges
        .filter(({ target }) => ['operations', 'http'].includes(partOf(target)))
        .map(({ target }) => `${relative(SRC, file)} → ${relative(SRC, target)}`),
    );
  assert.deepEqual(wrong, []);
  assert.ok(layerOf('helpers')! < layerOf('operations')!);
});

test('no import cycle at run time', () => {
  const state = new Map<string, 'visiting' | 'done'>();
  const cycles: string[] = [];
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'visiting') {
      cycles.push([...path.slice(path.indexOf(file)), file].map((entry) => relative(SRC, entry)).join(' → '));
      return;
    }
    state.set(file, 'visiting');
    for (const edge of graph.get(file) ?? []) if (!edge.typeOnly) visit(edge.target, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of files) visit(file, []);
  assert.deepEqual(cycles, []);
});

test('packages are known only by the part that owns them', () => {
  const wrong: string[] = [];
  for (const file of files) {
    for (const { specifier } of importsOf(file)) {
      const owner = PACKAGE_OWNERS.find(([pattern]) => pattern.test(specifier));
      if (owner && !owner[1].includes(partOf(file))) wrong.push(`${relative(SRC, file)} imports ${specifier}`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('the checker sees real imports (it would catch a climb)', () => {
  // Guards the regex: a file known to import the domain must show that edge.
  const targets = (file: string) => (graph.get(join(SRC, file)) ?? []).map((edge) => edge.target);
  assert.ok(targets('http/writeOutcome.ts').includes(join(SRC, 'payment', 'paymentProcessor.ts')));
  assert.ok(targets('main.ts').includes(join(SRC, 'service.ts')));
  assert.ok(
    graph.get(join(SRC, 'http', 'writeOutcome.ts'))?.some((edge) => edge.typeOnly),
    'type-only imports are told apart',
  );
});

/**
 * payment/ takes a decoded PaymentPayload object: the HTTP transport's encoding (base64 JSON in
 * named headers) is undone in http/paymentSignature.ts, and MCP hands its `_meta` object straight
 * in. Base64 stays where it is no transport's payment encoding, each named with why.
 */
const PAYMENT_BASE64_ALLOWED = new Map([
  // Settlements stored by an earlier version as header values (base64), read back during a rolling upgrade.
  ['payment/redisEntries.ts', 'legacy stored receipts'],
]);

test('payment/ knows neither the HTTP header encoding nor its helpers', () => {
  const wrong: string[] = [];
  for (const file of files.filter((path) => partOf(path) === 'payment')) {
    const name = relative(SRC, file);
    const text = readFileSync(file, 'utf8');
    for (const { specifier } of importsOf(file))
      if (/^@x402\/core\/http|paymentEncoding|paymentSignature/.test(specifier))
        wrong.push(`${name} imports ${specifier}`);
    if (/['"]base64['"]|atob\(|btoa\(/.test(text) && !PAYMENT_BASE64_ALLOWED.has(name))
      wrong.push(`${name} decodes base64`);
    if (/export const PAYMENT_(SIGNATURE|REQUIRED|RESPONSE)\b/.test(text)) wrong.push(`${name} names a payment header`);
  }
  assert.deepEqual(wrong, []);
});
