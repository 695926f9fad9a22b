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
 * end having printed its rows. A bench that breaks (a refused request, a renamed export, a limit it
 * overruns) fails here when the break is made, not at the next `npm run bench`. Figures at this
 * scale mean nothing, so none is asserted on, and no wall-clock time either. So two benches run at
 * once: at this scale a bench is mostly its start-up (Chromium, the app, the chain), which leaves a
 * core idle while it waits. The benches run from one esbuild bundle of them all, as npm test runs
 * its files (scripts/testBundle.mjs; `npm run bench` runs them through tsx): loading a bench's
 * sources through tsx cost 2-4 s of CPU more (bench/pint.ts 6.7 s against 4.6, bench/freeCost.ts
 * 8.9 against 4.9). And they run one after another in two long-lived processes (benchRunner.mjs),
 * not a process each: a bench run alone paid Node's start and the loading of the bundle's shared
 * chunks (the app, viem, puppeteer, ...) again, most of many a bench's CPU at this scale (the 18
 * benches but render.ts: 84.0 s of CPU a process each, 47.6 s one after another in one). A bench
 * fails here if its script throws, an error escapes it, or it ends leaving open what would keep
 * its own process alive (`npm run bench` would hang there); a runner whose bench failed is not
 * used again.
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

/** What benches start as child processes, bundled too: they run from the bundle (test/support/childEntry.ts). */
const children = ['bench/facilitatorProcess.ts', 'bench/mcpCostServer.ts'];

let bundles: Awaited<ReturnType<typeof bundleTests>> | undefined;
before(async () => {
  bundles = await bundleTests(root, [...benches, ...children]);
});
after(() => bundles?.remove());

/** The bench tier's END_MARK line (benchRunner.mjs): what ends a bench's output on either stream. */
const END_MARK = '@@bench-runner-end';
interface Outcome {
  ok: boolean;
  error?: string;
}

/**
 * A process of benchRunner.mjs: `run` hands it a bench and resolves with the bench's outcome and
 * output once it has ended (or the process did, or TIMEOUT_MS passed: then it is killed).
 */
function startRunner() {
  const child = spawn(process.execPath, ['--enable-source-maps', join(import.meta.dirname, 'benchRunner.mjs')], {
    cwd: root,
    env: { ...process.env, BENCH_SCALE: SCALE, TEST_BUNDLE_DIR: bundles!.outdir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const streams = { out: '', err: '' };
  let waiting: ((ended: { outcome: Outcome; output: string } | undefined) => void) | undefined;
  const outcomeIn = (text: string) => {
    const at = text.indexOf(`\n${END_MARK} `);
    if (at < 0 || !text.slice(at + 1).includes('\n')) return undefined;
    return {
      before: text.slice(0, at),
      outcome: JSON.parse(
        text
          .slice(at + 1)
          .split('\n')[0]!
          .slice(END_MARK.length + 1),
      ),
    };
  };
  const check = () => {
    const [out, err] = [outcomeIn(streams.out), outcomeIn(streams.err)];
    if (!out || !err || !waiting) return;
    // Each stream's text after its mark belongs to the next bench (none is running yet: empty).
    streams.out = streams.out.slice(streams.out.indexOf('\n', out.before.length + 1) + 1);
    streams.err = streams.err.slice(streams.err.indexOf('\n', err.before.length + 1) + 1);
    waiting({ outcome: out.outcome as Outcome, output: `${out.before}\n${err.before}` });
  };
  child.stdout.on('data', (chunk: Buffer) => ((streams.out += chunk.toString('utf8')), check()));
  child.stderr.on('data', (chunk: Buffer) => ((streams.err += chunk.toString('utf8')), check()));
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('close', (code) => {
      exited = code;
      waiting?.(undefined);
      resolve();
    }),
  );
  return {
    run(file: string, env: Record<string, string>): Promise<{ outcome: Outcome; output: string }> {
      return new Promise((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
        waiting = (ended) => {
          clearTimeout(timer);
          waiting = undefined;
          resolve(
            ended ?? {
              outcome: { ok: false, error: `the bench's process exited (${exited ?? 'killed after the timeout'})` },
              output: `${streams.out}\n${streams.err}`,
            },
          );
        };
        if (exited !== undefined) return waiting(undefined);
        child.stdin.write(`${JSON.stringify({ file: bundles!.bundleOf(file), env })}\n`);
      });
    },
    /** Ends the process: at once (kill) after a failure, or once its stdin is closed. */
    async close(kill: boolean) {
      if (kill) child.kill('SIGKILL');
      else child.stdin.end();
      await exit;
    },
  };
}
type Runner = ReturnType<typeof startRunner>;
/** Runners waiting for their next bench (at most two: the tests below run two at once). */
const idle: Runner[] = [];
after(async () => {
  await Promise.all(idle.splice(0).map((runner) => runner.close(false)));
});

test('package.json names the benches (npm run bench and bench:*)', () => {
  assert.ok(benches.length >= 10, `found ${benches.join(', ')}`);
  assert.ok(benches.includes('bench/batch.ts'));
});

describe('every bench runs to the end', { concurrency: 2 }, () => {
  for (const file of benches) {
    test(`${file} runs to the end at BENCH_SCALE=${SCALE}`, { timeout: TIMEOUT_MS + 10_000 }, async () => {
      const out = mkdtempSync(join(tmpdir(), 'bench-out-'));
      const runner = idle.pop() ?? startRunner();
      let ok = false;
      try {
        const { outcome, output } = await runner.run(file, { BENCH_OUT: out });
        ok = outcome.ok;
        assert.ok(outcome.ok, `${file} failed: ${outcome.error}\n${output.slice(-4000)}`);
        const rows = output.split('\n').filter((line) => /\d/.test(line));
        assert.ok(rows.length > 0, `${file} printed no row:\n${output}`);
        assert.doesNotMatch(output, /\bNaN\b|\bundefined\b/, `${file} printed a broken figure:\n${output}`);
      } finally {
        // A runner whose bench failed may hold what the bench left (a browser, a server): never reused.
        if (ok) idle.push(runner);
        else await runner.close(true);
        rmSync(out, { recursive: true, force: true });
      }
    });
  }
});
