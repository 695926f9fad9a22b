#!/usr/bin/env node
// `npm test`: set up what is missing, lint, type-check, then every tier of tests, and print each
// test file's duration at the end. `npm run test:<tier>` runs one tier (no lint, no type-check):
//   unit         test/unit: pure tests (no server, no browser), several files at once
//   integration  test/integration and test/visual: the real app, Chromium, Redis, several files at once
//   e2e          test/e2e: a real x402 client paying on a local chain, one file at a time
//   reliability  test/reliability (short variants; RELIABILITY_LONG=1 for the long ones), one at a time
//   bench        test/bench: every bench of bench/ run to its end at a tiny scale (no figure checked)
//   browser      test/browser/*.spec.ts with Playwright against Debian's Chromium
// At the end it lists the tests it skipped, counted by reason (a clone without ../shared skips the
// tests on the official e-invoice artefacts, test/support/sharedFolder.ts).
// Every other argument narrows the run to files whose path contains one of them:
// npm test -- money totals (npm test -- browser runs only the browser tests). Each node test file
// runs in a process of its own (as node --test does), which is what gives it a duration, and from
// a bundle of its sources that esbuild builds for the whole run first (scripts/testBundle.mjs: a
// test process starts in half the CPU it took through tsx); TEST_BUNDLE=0 runs the sources through
// tsx instead (stack traces and locations as written, e.g. to debug one file).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setup } from './setup.mjs';
import { bundleTests } from './testBundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Tier → the folders under test/ whose *.test.ts files it runs, and how many files run at once.
 * Integration files run side by side: each starts its own app, Chromium, Redis and chain on random
 * loopback ports and writes only under its own mkdtemp folder, and most of a file's time is spent
 * waiting (on Chromium, the JVM of check-xml, timers), so one more file than cores keeps them busy
 * (docs/development.md has the figures). The e2e and reliability files measure latencies and
 * settle on one chain each: one at a time. `bundled`: the tier's files run from esbuild bundles
 * (scripts/testBundle.mjs), the others' through tsx.
 */
const TIERS = {
  unit: { folders: ['unit'], parallel: Math.max(2, availableParallelism()), bundled: true },
  integration: { folders: ['integration', 'visual'], parallel: availableParallelism() + 1, bundled: true },
  e2e: { folders: ['e2e'], parallel: 1 },
  reliability: { folders: ['reliability'], parallel: 1 },
  bench: { folders: ['bench'], parallel: 1 },
  browser: { folders: ['browser'], parallel: 1 },
};

const args = process.argv.slice(2);
const tierArg = args.find((arg) => arg.startsWith('--tier='))?.slice('--tier='.length);
const filters = args.filter((arg) => !arg.startsWith('--'));
if (tierArg && !(tierArg in TIERS)) {
  process.stderr.write(`unknown tier ${tierArg}; one of ${Object.keys(TIERS).join(', ')}\n`);
  process.exit(2);
}
const tiers = tierArg ? [tierArg] : Object.keys(TIERS);
const everything = !tierArg && filters.length === 0;

function findTests(dir, suffix) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return findTests(path, suffix);
    return entry.name.endsWith(suffix) ? [relative(root, path)] : [];
  });
}

const matching = (file) => filters.length === 0 || filters.some((filter) => file.includes(filter));
const filesOf = (tier) =>
  TIERS[tier].folders
    .flatMap((folder) => findTests(join(root, 'test', folder), tier === 'browser' ? '.spec.ts' : '.test.ts'))
    .filter(matching)
    .sort();

// A test file outside every tier would silently never run.
const tiered = new Set(Object.values(TIERS).flatMap((tier) => tier.folders));
const orphans = findTests(join(root, 'test'), '.test.ts').filter((file) => !tiered.has(file.split('/')[1]));
if (orphans.length) {
  process.stderr.write(
    `test files in no tier (add their folder to TIERS in scripts/test.mjs): ${orphans.join(', ')}\n`,
  );
  process.exit(1);
}

const plan = tiers.map((tier) => ({ tier, files: filesOf(tier) })).filter(({ files }) => files.length > 0);
if (plan.length === 0) {
  process.stderr.write(`no test files match ${filters.join(' ')}\n`);
  process.exit(1);
}

setup(['start', 'test']);

const started = performance.now();
/** { tier, file, ms, ok } per file (the browser tier counts as one). */
const results = [];

if (everything) {
  process.stderr.write('[test] lint (eslint, prettier --check)...\n');
  const lint = spawnSync(process.execPath, [join(root, 'scripts', 'lint.mjs')], { cwd: root, stdio: 'inherit' });
  results.push({ tier: 'lint', file: 'eslint + prettier', ms: 0, ok: lint.status === 0 });
  process.stderr.write('[test] type-checking (tsc --noEmit)...\n');
  const tsc = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', root],
    { cwd: root, stdio: 'inherit' },
  );
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
}

// The tiers that run their files bundled (`bundled` in TIERS; the others through tsx).
const nodeFiles = plan.filter(({ tier }) => TIERS[tier].bundled).flatMap(({ files }) => files);
let bundles;
if (nodeFiles.length > 0 && process.env.TEST_BUNDLE !== '0') {
  const begin = performance.now();
  bundles = await bundleTests(root, nodeFiles);
  process.on('exit', bundles.remove);
  process.stderr.write(
    `[test] bundled ${nodeFiles.length} test file(s) in ${((performance.now() - begin) / 1000).toFixed(1)} s\n`,
  );
}

const skipReporter = pathToFileURL(join(root, 'scripts', 'skipReporter.mjs')).href;
const skipDir = mkdtempSync(join(tmpdir(), 'test-skips-'));
process.on('exit', () => rmSync(skipDir, { recursive: true, force: true }));

/** The { name, reason } of each test the file skipped (scripts/skipReporter.mjs wrote them). */
function skipsOf(path) {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

/**
 * CPU seconds (user + system) of this process's ended children and the descendants they waited for
 * (Chromium, the JVM of check-xml), from /proc (Linux; 0 elsewhere): read when a file's process has
 * ended, the growth since the last reading is that file's CPU, whatever else the machine runs.
 */
function childrenCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // cutime and cstime: fields 16 and 17 of stat, 14 and 15 after "pid (comm) ", in clock ticks
    // (USER_HZ, 100 on Linux).
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}
let cpuSeen = childrenCpuSeconds();
const cpuSinceLastReading = () => {
  const now = childrenCpuSeconds();
  const spent = now - cpuSeen;
  cpuSeen = now;
  return spent;
};

/** Runs one node test file in its own process; with `buffered`, its output is printed when it ends. */
function runNodeFile(file, buffered) {
  return new Promise((resolve) => {
    const begin = performance.now();
    const skipFile = join(skipDir, `${file.replaceAll('/', '_')}.jsonl`);
    const reporters = ['--test-reporter=spec', '--test-reporter-destination=stdout'];
    reporters.push(`--test-reporter=${skipReporter}`, `--test-reporter-destination=${skipFile}`);
    // A bundle is plain JavaScript: no tsx, whose loader slowed even a bundle's npm imports.
    const bundled = bundles && nodeFiles.includes(file);
    const entry = bundled ? ['--enable-source-maps', bundles.bundleOf(file)] : ['--import', 'tsx', file];
    const child = spawn(process.execPath, ['--test', ...reporters, ...entry], {
      cwd: root,
      stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, NODE_ENV: 'test' },
    });
    const chunks = [];
    child.stdout?.on('data', (chunk) => chunks.push(chunk));
    child.stderr?.on('data', (chunk) => chunks.push(chunk));
    child.on('close', (code) => {
      if (buffered) process.stdout.write(Buffer.concat(chunks));
      const cpu = cpuSinceLastReading();
      resolve({ file, ms: performance.now() - begin, cpu, ok: code === 0, skipped: skipsOf(skipFile) });
    });
  });
}

async function runTier(tier, files) {
  const tierStart = performance.now();
  cpuSinceLastReading(); // lint and tsc are not the first file's
  process.stderr.write(
    `[test] ${tier}: ${files.length} file(s)${TIERS[tier].parallel > 1 ? `, ${TIERS[tier].parallel} at once` : ''}...\n`,
  );
  if (tier === 'browser') {
    // Playwright's global set-up starts the app on 127.0.0.1 and stops it again (playwright.config.ts).
    const playwright = spawnSync(
      process.execPath,
      [join(root, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', ...(filters.length ? files : [])],
      {
        cwd: root,
        stdio: 'inherit',
        timeout: 15 * 60_000,
      },
    );
    results.push({
      tier,
      file: filters.length ? files.join(' ') : 'test/browser (playwright)',
      ms: performance.now() - tierStart,
      cpu: cpuSinceLastReading(),
      ok: playwright.status === 0,
    });
  } else {
    const queue = [...files];
    const parallel = Math.min(TIERS[tier].parallel, files.length);
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        for (let file = queue.shift(); file !== undefined; file = queue.shift())
          results.push({ tier, ...(await runNodeFile(file, parallel > 1)) });
      }),
    );
  }
  return performance.now() - tierStart;
}

const tierTimes = [];
for (const { tier, files } of plan) tierTimes.push([tier, await runTier(tier, files)]);

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const cpuOf = (tier) =>
  results.filter((result) => result.tier === tier).reduce((sum, result) => sum + (result.cpu ?? 0), 0);
// Wall time depends on what else the machine runs; CPU (of the file's processes, Chromium and the
// JVM included) much less: compare CPU when the machine is shared.
process.stdout.write('\n[test] durations per file, slowest first (wall, then CPU user+sys):\n');
for (const result of [...results].filter((r) => r.tier !== 'lint').sort((a, b) => b.ms - a.ms)) {
  process.stdout.write(
    `  ${seconds(result.ms).padStart(8)} ${`${(result.cpu ?? 0).toFixed(1)} s`.padStart(8)}  ${result.ok ? 'ok  ' : 'FAIL'}  ${result.tier.padEnd(11)} ${result.file}\n`,
  );
}
process.stdout.write(
  `[test] per tier (wall / CPU): ${tierTimes.map(([tier, ms]) => `${tier} ${seconds(ms)} / ${cpuOf(tier).toFixed(1)} s`).join(', ')}; total ${seconds(performance.now() - started)}\n`,
);
// Skips by reason, one line each: a clone without ../shared says here how much it did not run.
const skipsByReason = new Map();
for (const { file, skipped = [] } of results)
  for (const { reason } of skipped) {
    const entry = skipsByReason.get(reason) ?? { tests: 0, files: new Set() };
    entry.tests += 1;
    entry.files.add(file);
    skipsByReason.set(reason, entry);
  }
for (const [reason, { tests, files }] of skipsByReason)
  process.stdout.write(`[test] skipped ${tests} test(s) in ${files.size} file(s): ${reason}\n`);
const failed = results.filter((result) => !result.ok);
if (failed.length) {
  process.stdout.write(`[test] FAILED: ${failed.map((result) => result.file).join(', ')}\n`);
  process.exit(1);
}
process.stdout.write('[test] all passed\n');
