/**
 * `npm run docs`: writes the generated reference pages (scripts/docs/pages.ts) and the README's
 * API table. `npm run docs -- --check` writes nothing and fails when a committed page is stale.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedPages } from './pages.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const check = process.argv.includes('--check');
const pages = await generatedPages((path) => readFileSync(join(root, path), 'utf8'));
const stale: string[] = [];
for (const [path, content] of pages) {
  const file = join(root, path);
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === content) continue;
  stale.push(path);
  if (!check) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}
if (check && stale.length) {
  process.stderr.write(`stale generated pages: ${stale.join(', ')}; run npm run docs\n`);
  process.exit(1);
}
process.stdout.write(
  stale.length ? `${check ? 'stale' : 'wrote'}: ${stale.join(', ')}\n` : 'generated pages are up to date\n',
);
