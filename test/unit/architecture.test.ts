import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { PROJECT_ROOT } from '../../src/render/templates.js';

/**
 * The layers of docs/development.md (Code layout), checked on the real import graph of src/: an
 * import goes down to a lower layer or stays inside its own part; never sideways into a sibling
 * part, never back up, and no file reaches itself through imports, type-only imports included.
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
  // Customer designs: the checks of a package and the content contract, over the renderer's view
  // model and templates; their operation rows (operations/) sit above.
  ['templates', 2.5],
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

interface Edge {
  target: string;
  /** `import type` (or only `type` names, or `import('…')` in a type): erased at run time, yet part of the design. */
  typeOnly: boolean;
}

/** Whether an import declaration names types only, so that the compiled code drops it. */
function importsTypesOnly(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // import './x.js': run for its effects
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return (
    !clause.name &&
    named !== undefined &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((element) => element.isTypeOnly)
  );
}

/**
 * Every module a file names, read with the TypeScript parser (comments and strings can't fool
 * it): `import`/`export … from`, a bare `import '…'`, `import('…')` in code and in a type.
 */
function importsIn(source: string): { specifier: string; typeOnly: boolean }[] {
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier))
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: importsTypesOnly(node) });
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('source.ts', source, ts.ScriptTarget.Latest));
  return found;
}

const importsOf = (file: string) => importsIn(readFileSync(file, 'utf8'));

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

/**
 * The strongly connected sets of the import graph (Tarjan): files that reach each other through
 * imports. Type-only imports count: a cycle of types still ties the files into one unit that can
 * only be understood, tested and changed together.
 */
function importCycles(edges: Map<string, Edge[]>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    for (const { target } of edges.get(file) ?? []) {
      if (!order.has(target)) visit(target);
      if (stack.includes(target)) low.set(file, Math.min(low.get(file)!, low.get(target)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const set = stack.splice(stack.indexOf(file));
    if (set.length > 1 || edges.get(file)?.some(({ target }) => target === file)) cycles.push(set);
  };
  for (const file of edges.keys()) if (!order.has(file)) visit(file);
  return cycles;
}

test('no import cycle in src/, type-only imports included', () => {
  const described = importCycles(graph).map((set) =>
    set
      .map((file) => {
        const inside = graph.get(file)!.filter(({ target }) => set.includes(target));
        return `${relative(SRC, file)} → ${inside.map(({ target, typeOnly }) => relative(SRC, target) + (typeOnly ? ' (type)' : '')).join(', ')}`;
      })
      .sort(),
  );
  assert.deepEqual(described, []);
});

test('the cycle finder finds cycles of type-only imports, and only cycles', () => {
  const edge = (target: string) => [{ target, typeOnly: true }];
  const found = importCycles(
    new Map([
      ['a', edge('b')],
      ['b', edge('c')],
      ['c', edge('a')],
      ['d', edge('a')],
      ['e', edge('e')],
      ['f', edge('g')],
    ]),
  );
  assert.deepEqual(
    found.map((set) => set.sort()),
    [['a', 'b', 'c'], ['e']],
  );
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

test('the scanner sees every form of import, and tells type-only ones apart', () => {
  const source = [
    "import type { A } from './a.js';",
    "import { type B, type C } from './b.js';",
    "import { d, type D } from './d.js';",
    "import './e.js';",
    "export * from './f.js';",
    "export type { G } from './g.js';",
    "type H = import('./h.js').H;",
    "const i = await import('./i.js');",
    "// import x from './comment.js';",
    'const text = "import y from \'./string.js\'";',
  ].join('\n');
  assert.deepEqual(importsIn(source), [
    { specifier: './a.js', typeOnly: true },
    { specifier: './b.js', typeOnly: true },
    { specifier: './d.js', typeOnly: false },
    { specifier: './e.js', typeOnly: false },
    { specifier: './f.js', typeOnly: false },
    { specifier: './g.js', typeOnly: true },
    { specifier: './h.js', typeOnly: true },
    { specifier: './i.js', typeOnly: false },
  ]);
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
