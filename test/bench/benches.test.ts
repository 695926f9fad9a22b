import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bundleTests } from '../../scripts/testBundle.mjs';

/**
 * Every bench still runs to the end: each bench/*.ts file that a script of package.json names
 * (`npm run bench` and the `bench:*` scripts) runs at a tiny BENCH_SCALE (bench/scale.ts) and must
 * exit 0 having printed its rows. A bench that breaks (a refused request, a renamed export, a
 * limit it overruns) fails here when the break is made, not at the next `npm run bench`. Figures at
 * this scale mean nothing, so none is asserted on, and no wall-clock time either. So two benches
 * run at once: at this scale a bench is mostly its start-up (Chromium, the app, the chain), which
 * leaves a core idle while it waits. The benches run from one esbuild bundle of them all, as
 * npm test runs its files (scripts/testBundle.mjs; `npm run bench` runs them through tsx): loading
 * a bench's sources through tsx cost 2-4 s of CPU more (bench/pint.ts 6.7 s against 4.6,
 * bench/freeCost.ts 8.9 against 4.9).
 */
const root = join(import.meta.dirname, '..', '..');
const SCALE = '0.02';
const TIMEOUT_MS = 10 * 60_000;

const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;
const benches = [
  ...new Set(
    Object.entries(scripts)
      .filter(([name]) => name === 'bench' || name.startsWith('bench:'))
      .flatMap(([, command]) => [...command.matchAll(/\bbench\/[\w-]+\.ts\b/g)].map((match) => match[0])),
  ),
];

/** What benches start as child processes, bundled too: they run from the bundle (bench/childEntry.ts). */
const children = ['bench/facilitatorProcess.ts', 'bench/mcpCostServer.ts'];

let bundles: Awaited<ReturnType<typeof bundleTests>> | undefined;
before(async () => {
  bundles = await bundleTests(root, [...benches, ...children]);
});
after(() => bundles?.remove());

function run(file: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--enable-source-maps', bundles!.bundleOf(file)], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('close', (code) => resolve({ code, output: Buffer.concat(chunks).toString('utf8') }));
  });
}

test('package.json names the benches (npm run bench and bench:*)', () => {
  assert.ok(benches.length >= 10, `found ${benches.join(', ')}`);
  assert.ok(benches.includes('bench/batch.ts'));
});

describe('every bench runs to the end', { concurrency: 2 }, () => {
  for (const file of benches) {
    test(`${file} runs to the end at BENCH_SCALE=${SCALE}`, { timeout: TIMEOUT_MS + 10_000 }, async () => {
      const out = mkdtempSync(join(tmpdir(), 'bench-out-'));
      try {
        const { code, output } = await run(file, {
          BENCH_SCALE: SCALE,
          BENCH_OUT: out,
          BENCH_BUNDLE_DIR: bundles!.outdir,
        });
        assert.equal(code, 0, `${file} exited ${code}:\n${output.slice(-4000)}`);
        const rows = output.split('\n').filter((line) => /\d/.test(line));
        assert.ok(rows.length > 0, `${file} printed no row:\n${output}`);
        assert.doesNotMatch(output, /\bNaN\b|\bundefined\b/, `${file} printed a broken figure:\n${output}`);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });
  }
});
