#!/usr/bin/env node
// `npm test`: set up what is missing, type-check, then run every test file under test/ with
// Node's test runner (files run one at a time: several start Chromium or a local chain), then the
// browser tests (test/browser/*.spec.ts) with Playwright against Debian's Chromium.
// Extra arguments narrow the run to files whose path contains one of them: npm test -- money
// (npm test -- browser runs only the browser tests).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setup } from './setup.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
setup(['start', 'test']);

function findTests(dir, suffix = '.test.ts') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return findTests(path, suffix);
    return entry.name.endsWith(suffix) ? [relative(root, path)] : [];
  });
}

const filters = process.argv.slice(2);
const matching = (file) => filters.length === 0 || filters.some((filter) => file.includes(filter));
const files = findTests(join(root, 'test')).filter(matching).sort();
const specs = findTests(join(root, 'test', 'browser'), '.spec.ts').filter(matching).sort();
if (files.length === 0 && specs.length === 0) {
  process.stderr.write(`no test files match ${filters.join(' ')}\n`);
  process.exit(1);
}

if (filters.length === 0) {
  process.stderr.write('[test] type-checking (tsc --noEmit)...\n');
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', root], { cwd: root, stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
}

let status = 0;
if (files.length > 0) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...files], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'test' },
  });
  status = run.status ?? 1;
}

// Browser tests: Playwright's global set-up starts the app on 127.0.0.1 and stops it again
// (playwright.config.ts). They run even after a node test failed; either failure fails the run.
if (specs.length > 0) {
  process.stderr.write(`[test] browser tests (playwright test ${filters.length ? specs.join(' ') : 'test/browser'})...\n`);
  const playwright = spawnSync(process.execPath, [join(root, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', ...(filters.length ? specs : [])], {
    cwd: root,
    stdio: 'inherit',
    timeout: 15 * 60_000,
  });
  if (status === 0) status = playwright.status ?? 1;
}
process.exit(status);
