// Docs that name a file of this repository must name one that exists: a renamed or deleted file
// otherwise leaves a page pointing at nothing (docs/operations.md once named a strict JSON parser
// gone for weeks). Checked: every markdown link to a relative path, and every path under one of
// the repository's top folders that the page names, in or out of backticks.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';

const root = join(import.meta.dirname, '..', '..', '..');
const TOP_FOLDERS = ['src', 'test', 'scripts', 'bench', 'docs', 'deploy', 'docker', 'templates', 'styles', 'contracts'];

/** Folders git ignores (.gitignore): what a run writes there (bench/results/…) is named before it exists. */
const IGNORED_FOLDERS = readFileSync(join(root, '.gitignore'), 'utf8')
  .split('\n')
  .filter((line) => /^\/?[\w.-]+(\/[\w.-]+)*\/$/.test(line.trim()))
  .map((line) => line.trim().replace(/^\//, ''));
/** Names that are examples, not files: the made-up operation file of docs/architecture.md's recipe. */
const EXAMPLE_NAMES = new Set(['src/operations/fooOperations.ts']);
const mustExist = (path: string) =>
  !EXAMPLE_NAMES.has(path) && !IGNORED_FOLDERS.some((folder) => `${path}/`.startsWith(folder));

function markdownFiles(): string[] {
  const inDocs = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? inDocs(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
    );
  return ['README.md', ...inDocs('docs')];
}

/** A path as written, without a line reference (`:63-79`), an anchor or a trailing dot. */
const bare = (path: string) =>
  path
    .replace(/#.*$/, '')
    .replace(/:[\d,-]+$/, '')
    .replace(/[.,;:]+$/, '');

/** Paths a page names: relative link targets (from the page's folder) and top-folder paths (from the root). */
function namedPaths(file: string, text: string): Array<{ path: string; named: string }> {
  const found: Array<{ path: string; named: string }> = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:|^#|^\/\//i.test(target!)) continue;
    const path = bare(target!);
    if (path) found.push({ path: relative(root, join(root, dirname(file), path)), named: target! });
  }
  const topPath = new RegExp(`(?<![\\w./-])((?:${TOP_FOLDERS.join('|')})/[\\w./-]*[\\w/])`, 'g');
  for (const [, named] of text.matchAll(topPath)) {
    // A glob or a placeholder names no one file; its folder must still exist.
    const path = bare(named!).replace(/\/[^/]*[*<{][^/]*.*$/, '');
    found.push({ path, named: named! });
  }
  return found;
}

test('every repository path the README and docs/ name exists', () => {
  const missing: string[] = [];
  for (const file of markdownFiles()) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const { path, named } of namedPaths(file, text))
      if (mustExist(path) && !existsSync(join(root, path))) missing.push(`${file}: ${named}`);
  }
  assert.deepEqual(missing, []);
});

test('a removed file named by a page is found', () => {
  const named = namedPaths('docs/operations.md', 'parsed by `src/compute/strictJson.ts`; see [x](../src/app.ts)');
  assert.deepEqual(
    named.map(({ path }) => path),
    ['src/app.ts', 'src/compute/strictJson.ts'],
  );
  assert.equal(existsSync(join(root, 'src/compute/strictJson.ts')), false);
});
