import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(import.meta.dirname, '..');

/**
 * Node's arguments that run one of the project's .ts files as a child process of a bench: through
 * tsx, as `npm run bench` runs the benches, or, when the bench tier runs the bench from its esbuild
 * bundle (test/bench/benches.test.ts bundles these children too and names the folder in
 * BENCH_BUNDLE_DIR), from that bundle: bench/facilitatorProcess.ts took 3.0-3.2 s of CPU to start
 * through tsx and 1.2-1.4 s bundled.
 */
export function nodeArgsOf(file: URL): string[] {
  const path = fileURLToPath(file);
  const folder = process.env.BENCH_BUNDLE_DIR;
  const bundled = folder ? join(folder, relative(ROOT, path).replace(/\.ts$/, '.mjs')) : undefined;
  return bundled && existsSync(bundled) ? ['--enable-source-maps', bundled] : ['--import', 'tsx', path];
}
