#!/usr/bin/env node
// `npm test`: set up what is missing, then lint, type-check and every tier of tests in one pool
// (scripts/testPool.mjs), and print each file's duration at the end. `npm run test:<tier>` runs one
// tier (no lint, no type-check):
//   unit         test/unit: pure tests (no server, no browser)
//   integration  test/integration and test/visual: the real app, Chromium, Redis
//   e2e          test/e2e: a real x402 client paying on a local chain (at most 2 files at once)
//   reliability  test/reliability (short variants; RELIABILITY_LONG=1 for the long ones, then each
//                file alone), one at a time; flood.test.ts measures latencies: alone, at the end
//   bench        test/bench: every bench of bench/ run to its end at a tiny scale (no figure checked)
//   browser      test/browser/*.spec.ts with Playwright against Debian's Chromium
// At the end it lists the tests it skipped, counted by reason (a clone without ../shared skips the
// tests on the official e-invoice artefacts, test/support/sharedFolder.ts).
// Every other argument narrows the run to files whose path contains one of them:
// npm test -- money totals (npm test -- browser runs only the browser tests). Each node test file
// runs in a process of its own (as node --test does), which is what gives it a duration, and from
// a bundle of its sources that esbuild builds for the whole run first (scripts/testBundle.mjs: a
// test process starts in half the CPU it took through tsx); TEST_BUNDLE=0 runs the sources through
// tsx instead (stack traces and locations as written, e.g. to debug one file). The unit and
// integration and e2e files run several to a process (scripts/testGroups.mjs); TEST_GROUPS=0 runs
// each alone.
// `npm test -- --write-durations [words]` rewrites test/durations.json (what the pool expects each
// job to take) with this run's figures for the files it ran.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setup } from './setup.mjs';
import { bundleTests } from './testBundle.mjs';
import { figuresOfGroup, groupEntryPath, packGroups, readJsonLines, writeGroupEntry } from './testGroups.mjs';
import { runPool, runProcess } from './testPool.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LONG = process.env.RELIABILITY_LONG === '1';

/**
 * Tier → the folders under test/ whose *.test.ts files it runs. `bundled`: the tier's files run from
 * esbuild bundles (scripts/testBundle.mjs), the others' through tsx. `cap`: at most that many of
 * its files at once. Integration and unit files share nothing (each starts its own app, Chromium,
 * Redis and chain on random loopback ports and writes only under its own mkdtemp folder). The e2e
 * files each start their own services on port 0 too, but settle real transfers and hold a renderer
 * full on purpose: two jobs at once; a group's files share one chain, facilitator and renderer
 * (test/support/sharedWorld.ts: each file its own buyers and payee). The reliability files inject faults
 * and time recoveries: one at a time, and each alone in the long run, whose timing targets are
 * asserted. `group`: its files run several to a process, one after another, up to that many seconds
 * of expected wall a process (scripts/testGroups.mjs), but those in OWN_PROCESS.
 */
const TIERS = {
  unit: { folders: ['unit'], bundled: true, group: 30 },
  integration: { folders: ['integration', 'visual'], bundled: true, group: 45 },
  e2e: { folders: ['e2e'], bundled: true, cap: 2, group: 70 },
  reliability: { folders: ['reliability'], bundled: true, cap: 1 },
  bench: { folders: ['bench'], cap: 1 },
  browser: { folders: ['browser'], cap: 1 },
};
/**
 * Files that measure latencies on the machine (the flood's /healthz p99): they run alone, after every
 * other job, so no other test takes the cores they measure.
 */
const ALONE = ['test/reliability/flood.test.ts'];
/**
 * Files of a grouped tier that run in a process of their own: computePool.test.ts counts the
 * threads of its process. None of e2e: what they stop or break is their own (paid-capacity SIGSTOPs
 * a one-page renderer of its own, not the shared one, and resumes it in a finally; two-instances
 * stops a Redis of its own; the faulty facilitators are each file's proxy), and a file's buyers and
 * payee are its own on the shared chain (test/support/sharedWorld.ts).
 */
const OWN_PROCESS = ['test/unit/compute/computePool.test.ts'];

/**
 * How much CPU the running jobs may be expected to use at once, in cores: the cores and a quarter
 * more, as the expected shares come from runs whose files waited on each other too.
 * TEST_CPU_BUDGET overrides it.
 */
const BUDGET = Number(process.env.TEST_CPU_BUDGET) || availableParallelism() * 1.25;

const args = process.argv.slice(2);
const tierArg = args.find((arg) => arg.startsWith('--tier='))?.slice('--tier='.length);
const writeDurations = args.includes('--write-durations');
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

/**
 * What each job is expected to take ([wall, cpu] seconds, test/durations.json): the pool's order
 * and admission. A job it does not list (a new file) is expected to take its tier's median.
 */
const durationsPath = join(root, 'test', 'durations.json');
const durations = JSON.parse(readFileSync(durationsPath, 'utf8')).jobs;
function expected(name, tier) {
  if (durations[name]) return durations[name];
  const ofTier = Object.entries(durations)
    .filter(([other]) => other.startsWith(`test/${TIERS[tier]?.folders[0]}/`))
    .map(([, figures]) => figures)
    .sort((a, b) => a[0] - b[0]);
  return ofTier[Math.floor(ofTier.length / 2)] ?? [5, 5];
}

// The tiers that run their files bundled (`bundled` in TIERS; the others through tsx). The bundle
// is built while the first jobs (lint, tsc, the tsx files) start.
// The flood (ALONE) too: it ran through tsx as it was tuned, but what it measures is the service's
// process (its target, bundled since 2026-12-07), and its own start through tsx was the run's last
// seconds.
const nodeFiles = plan.filter(({ tier }) => TIERS[tier].bundled).flatMap(({ files }) => files);
/**
 * What test files start as child processes of their own (the service as users run it, the fuzz and
 * flood targets, the renderer's probes, the local chain), bundled with the test files: a test file
 * runs each through test/support/childEntry.ts, from this bundle when the run names its folder in
 * TEST_BUNDLE_DIR, through tsx otherwise. src/main.ts took 8.6-9.2 s of CPU to listen through tsx
 * and 3.5-4.0 s bundled (local payment mode, its chain and Chromium included).
 */
const CHILD_ENTRIES = [
  'src/main.ts',
  'scripts/local-payment-network.ts',
  'test/reliability/support/fuzzTarget.ts',
  'test/reliability/support/floodTarget.ts',
  'test/reliability/support/flooder.ts',
  'test/reliability/support/healthProbe.ts',
  'test/reliability/support/renderProbes.ts',
  // Imported by the Playwright run (test/support/childEntry.ts importEntry).
  'test/browser/support/previewServer.ts',
  'test/support/paidService.ts',
];
// The browser tier alone too: its Playwright processes import the app from the bundle.
const bundling =
  (nodeFiles.length > 0 || plan.some(({ tier }) => tier === 'browser')) && process.env.TEST_BUNDLE !== '0'
    ? bundleTests(root, [...nodeFiles, ...CHILD_ENTRIES]).then((bundles) => {
        process.on('exit', bundles.remove);
        process.stderr.write(
          `[test] bundled ${nodeFiles.length} test file(s) and ${CHILD_ENTRIES.length} child entries in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
        );
        return bundles;
      })
    : Promise.resolve(undefined);

const outcomeReporter = pathToFileURL(join(root, 'scripts', 'outcomeReporter.mjs')).href;
const outcomeDir = mkdtempSync(join(tmpdir(), 'test-outcomes-'));
process.on('exit', () => rmSync(outcomeDir, { recursive: true, force: true }));

/**
 * What a test process's outcome reporter wrote (scripts/outcomeReporter.mjs): the { name, reason, top }
 * of each test it skipped, and the names of the tests or suites at the top that failed (in a group,
 * its files).
 */
function outcomesOf(path) {
  const lines = readJsonLines(path);
  return {
    skipped: lines.filter((line) => line.reason !== undefined),
    failedTops: lines.filter((line) => line.failed !== undefined).map((line) => line.failed),
  };
}

/** How a job runs: its output printed in one piece when it ends, unless it is the only job. */
const jobCount = plan.reduce((sum, { tier, files }) => sum + (tier === 'browser' ? 1 : files.length), 0);
const options = { cwd: root, buffered: jobCount > 1 || everything };

/**
 * The longest a node test file may take: the slowest took 75 s in CI and 5-6 min starved at nice 19
 * under load 30. A file that outlives it is killed and fails (its before() timed out and a server it
 * started afterwards kept it alive: 60 min of nothing, fonts-http, 2026-12-06).
 */
const FILE_LIMIT_S = Number(process.env.TEST_FILE_LIMIT_S ?? 900);

/** Runs node test files in one process: one as it is, several as a group (scripts/testGroups.mjs). */
async function runNodeFiles(files) {
  const key = files[0].replaceAll('/', '_');
  const outcomeFile = join(outcomeDir, `${key}.jsonl`);
  const reporters = ['--test-reporter=spec', '--test-reporter-destination=stdout'];
  reporters.push(`--test-reporter=${outcomeReporter}`, `--test-reporter-destination=${outcomeFile}`);
  // A bundle is plain JavaScript: no tsx, whose loader slowed even a bundle's npm imports.
  const built = await bundling;
  // The bench tier's file runs through tsx and bundles the benches itself.
  const bundles = nodeFiles.includes(files[0]) ? built : undefined;
  let entry = bundles ? ['--enable-source-maps', bundles.bundleOf(files[0])] : ['--import', 'tsx', files[0]];
  const figuresPath = join(outcomeDir, `${key}.figures.jsonl`);
  if (files.length > 1) {
    const path = groupEntryPath(bundles.outdir, groupsWritten++);
    writeGroupEntry(
      path,
      files.map((file) => [file, bundles.bundleOf(file)]),
      figuresPath,
    );
    entry = ['--enable-source-maps', path];
  }
  const env = { ...process.env, NODE_ENV: 'test', ...(built && { TEST_BUNDLE_DIR: built.outdir }) };
  // The file itself, not `node --test file`: that runner is a second node process per file, which
  // only passes the child's report on (0.1 s of CPU a file, measured on two unit files: 0.22 s of CPU
  // against 0.11, 0.42 against 0.32). node:test runs a file's tests and sets the exit code as well.
  const result = await runProcess(process.execPath, [...reporters, ...entry], {
    ...options,
    env,
    timeoutMs: FILE_LIMIT_S * 1000,
    label: files.join(' '),
  });
  const perFile = files.length > 1 ? figuresOfGroup(files, figuresPath, result.cpu) : undefined;
  const { skipped, failedTops } = outcomesOf(outcomeFile);
  // A group that failed names the files that did; none named (it crashed, or was killed): the group.
  const failedFiles = perFile && !result.ok && failedTops.length ? failedTops : undefined;
  return { ...result, skipped, perFile, failedFiles };
}
let groupsWritten = 0;

const job = (tier, name, run) => {
  const [wall, cpu] = expected(name, tier);
  return { tier, name, wall, cpu, exclusive: ALONE.includes(name) || (LONG && tier === 'reliability'), run };
};
const jobs = [];
if (everything) {
  const node =
    (script, ...rest) =>
    () =>
      runProcess(process.execPath, [script, ...rest], options);
  jobs.push(job('lint', 'lint', node(join(root, 'scripts', 'lint.mjs'))));
  jobs.push(job('lint', 'tsc', node(join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', root)));
}
for (const { tier, files } of plan) {
  if (tier === 'browser') {
    // Playwright's global set-up starts the app on 127.0.0.1 and stops it again (playwright.config.ts).
    const cli = join(root, 'node_modules', '@playwright', 'test', 'cli.js');
    const run = async () => {
      // Its app from the run's bundle when there is one (test/support/childEntry.ts importEntry).
      const built = await bundling;
      return runProcess(process.execPath, [cli, 'test', ...(filters.length ? files : [])], {
        ...options,
        env: { ...process.env, ...(built && { TEST_BUNDLE_DIR: built.outdir }) },
        timeoutMs: 15 * 60_000,
      });
    };
    jobs.push(job(tier, filters.length ? files.join(' ') : 'test/browser', run));
  } else if (
    TIERS[tier].group &&
    nodeFiles.length &&
    process.env.TEST_BUNDLE !== '0' &&
    process.env.TEST_GROUPS !== '0'
  ) {
    const groups = packGroups(
      files.map((file) => ({ name: file, wall: expected(file, tier)[0] })),
      { wallPerGroup: TIERS[tier].group, alone: [...OWN_PROCESS, ...ALONE] },
    );
    for (const members of groups) {
      const name = members.length > 1 ? `${members[0]} + ${members.length - 1} more` : members[0];
      const sum = members.reduce((total, file) => total.map((value, i) => value + expected(file, tier)[i]), [0, 0]);
      jobs.push({
        ...job(tier, members[0], () => runNodeFiles(members)),
        name,
        wall: sum[0],
        cpu: sum[1],
        files: members,
      });
    }
  } else for (const file of files) jobs.push(job(tier, file, () => runNodeFiles([file])));
}

process.stderr.write(
  `[test] ${jobs.length} job(s) (${plan.map(({ tier, files }) => `${tier} ${files.length}`).join(', ')}${everything ? ', lint, tsc' : ''}), the longest first, expected CPU up to ${BUDGET} cores at once${
    jobs.some((j) => j.exclusive)
      ? `; alone at the end: ${jobs
          .filter((j) => j.exclusive)
          .map((j) => j.name)
          .join(', ')}`
      : ''
  }\n`,
);
const caps = Object.fromEntries(Object.entries(TIERS).map(([tier, { cap }]) => [tier, cap ?? Infinity]));
// Lint and tsc first: they compute without waiting (1.3 cores each), so started last, by their
// wall, they could not run beside each other or the other such files (fuzz, computePool) and ended
// the run one after another (2026-12-07: 371-452 s of a 469 s run, the cores 65 % busy); started
// first, they run beside the long files that mostly wait (bench, browser, hostile templates).
const results = await runPool(jobs, { budget: BUDGET, tierCaps: caps, first: ['lint'], origin: started });

// TEST_TIMELINE=path: every job's start, end, wall and CPU as JSON, to see where the cores idle.
if (process.env.TEST_TIMELINE)
  writeFileSync(
    process.env.TEST_TIMELINE,
    JSON.stringify(results.map(({ name, tier, started, ended, cpu, ok }) => ({ name, tier, started, ended, cpu, ok }))),
  );
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const ofTier = (tier) => results.filter((result) => result.tier === tier);
const cpuOf = (list) => list.reduce((sum, result) => sum + result.cpu, 0);
// A tier's wall: from its first job's start to its last job's end (tiers overlap in the pool).
const spanOf = (list) => Math.max(...list.map((r) => r.ended)) - Math.min(...list.map((r) => r.started));
// Wall time depends on what else the machine runs; CPU (of the file's processes, Chromium and the
// JVM included) much less: compare CPU when the machine is shared.
process.stdout.write('\n[test] durations per job, slowest first (wall, then CPU user+sys):\n');
for (const result of [...results].sort((a, b) => b.ms - a.ms)) {
  process.stdout.write(
    `  ${seconds(result.ms).padStart(8)} ${`${result.cpu.toFixed(1)} s`.padStart(8)}  ${result.ok ? 'ok  ' : 'FAIL'}  ${result.tier.padEnd(11)} ${result.name}\n`,
  );
  // A group's files: each one's wall in the group and its share of the group's CPU.
  for (const [file, [wall, cpu]] of Object.entries(result.perFile ?? {}))
    process.stdout.write(
      `  ${`${wall.toFixed(1)} s`.padStart(8)} ${`${cpu.toFixed(1)} s`.padStart(8)}        ${''.padEnd(11)}   ${file}\n`,
    );
}
const total = performance.now() - started;
const tierNames = [...new Set(results.map((result) => result.tier))];
process.stdout.write(
  `[test] per tier (wall from its first start to its last end, side by side / CPU): ${tierNames.map((tier) => `${tier} ${seconds(spanOf(ofTier(tier)))} / ${cpuOf(ofTier(tier)).toFixed(1)} s`).join(', ')}; total ${seconds(total)}, CPU ${cpuOf(results).toFixed(1)} s (${((cpuOf(results) * 1000) / total).toFixed(2)} cores busy on average)\n`,
);
// Skips by reason, one line each: a clone without ../shared says here how much it did not run.
const skipsByReason = new Map();
for (const { name, skipped = [], perFile } of results)
  for (const { reason, top } of skipped) {
    const entry = skipsByReason.get(reason) ?? { tests: 0, files: new Set() };
    entry.tests += 1;
    // In a group, the file is the suite at the top (scripts/testGroups.mjs).
    entry.files.add(perFile ? top : name);
    skipsByReason.set(reason, entry);
  }
for (const [reason, { tests, files }] of skipsByReason)
  process.stdout.write(`[test] skipped ${tests} test(s) in ${files.size} file(s): ${reason}\n`);

// Each file's figures; a group's files each with their own (runNodeFiles).
const figures = results.flatMap((result) =>
  Object.entries(result.perFile ?? { [result.name]: [result.ms / 1000, result.cpu] }),
);
const unlisted = figures.filter(([name]) => !durations[name]).map(([name]) => name);
if (writeDurations) {
  const jobsNow = { ...durations };
  // A file of a group that took under 0.05 s still took some: a wall of 0 reads as no figure.
  for (const [name, [wall, cpu]] of figures) jobsNow[name] = [Math.max(0.1, +wall.toFixed(1)), +cpu.toFixed(1)];
  const sorted = Object.fromEntries(Object.entries(jobsNow).sort(([a], [b]) => a.localeCompare(b)));
  const { about } = JSON.parse(readFileSync(durationsPath, 'utf8'));
  // One job a line, as Prettier formats it.
  const lines = Object.entries(sorted).map(([name, [wall, cpu]]) => `    ${JSON.stringify(name)}: [${wall}, ${cpu}]`);
  writeFileSync(durationsPath, `{\n  "about": ${JSON.stringify(about)},\n  "jobs": {\n${lines.join(',\n')}\n  }\n}\n`);
  process.stdout.write(`[test] wrote ${figures.length} job(s)' figures to test/durations.json\n`);
} else if (unlisted.length && everything)
  process.stdout.write(
    `[test] not in test/durations.json (run with their tier's median; npm test -- --write-durations <words> adds them): ${unlisted.join(', ')}\n`,
  );

const failed = results.filter((result) => !result.ok);
// Each failed job's reasons once more, last: CI shows the tail of the output only.
for (const { name, failures } of failed)
  if (failures) process.stdout.write(`[test] why ${name} failed:\n${failures.map((line) => `  ${line}`).join('\n')}\n`);
if (failed.length) {
  const named = failed.map((result) => result.failedFiles?.join(', ') ?? result.name);
  process.stdout.write(`[test] FAILED: ${named.join(', ')}\n`);
  process.exit(1);
}
process.stdout.write('[test] all passed\n');
