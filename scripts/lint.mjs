#!/usr/bin/env node
// `npm run lint` (and the first step of `npm test`): ESLint (eslint.config.js), Prettier's check
// (.prettierrc.json; `npm run format` rewrites) and knip's unused exports and files (knip.json).
// Set-up first (scripts/setup.mjs, the npm dependencies only). Each runs even when an earlier one
// failed, so one run lists every problem.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setup } from './setup.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// As `npm test` does: on a fresh clone there is no eslint to run before `npm ci`.
setup([]);
const bin = (name) => join(root, 'node_modules', '.bin', name);
const steps = [
  ['eslint', [bin('eslint'), '--max-warnings=0', '.']],
  ['prettier', [bin('prettier'), '--check', '--log-level=warn', '.']],
  ['knip', [bin('knip'), '--no-progress']],
];
const failed = steps.filter(([name, [command, ...args]]) => {
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (run.status !== 0)
    process.stderr.write(`[lint] ${name} failed${name === 'prettier' ? ' (npm run format fixes it)' : ''}\n`);
  return run.status !== 0;
});
process.exit(failed.length ? 1 : 0);
