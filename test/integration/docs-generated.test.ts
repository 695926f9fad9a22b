import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { generatedPages } from '../../scripts/docs/pages.js';

const root = join(import.meta.dirname, '..', '..');

// The reference pages are generated from the code (the served OpenAPI document, the error table,
// the environment schema); a change to any of them must come with `npm run docs`.
test('the committed generated pages are what npm run docs writes now', async () => {
  const pages = await generatedPages((path) => readFileSync(join(root, path), 'utf8'));
  assert.ok(pages.size >= 4);
  for (const [path, expected] of pages) {
    const committed = readFileSync(join(root, path), 'utf8');
    assert.equal(committed, expected, `${path} is stale: run npm run docs and commit the result`);
  }
});

test('the README API table lists every operation of /openapi.json once', async () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const api = readFileSync(join(root, 'docs', 'reference', 'api.md'), 'utf8');
  for (const path of [
    '/v1/invoice.pdf',
    '/v1/invoice/validate',
    '/v1/e-invoice/ubl.xml',
    '/openapi.json',
    '/healthz',
  ]) {
    assert.match(readme, new RegExp(`\\| \`(GET|POST) ${path.replace(/[.]/g, '\\.')}\` \\|`), path);
    assert.match(api, new RegExp(`## \`(GET|POST) ${path.replace(/[.]/g, '\\.')}\``), path);
  }
});
