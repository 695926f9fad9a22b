import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * How a test starts one of the project's .ts files as a child process: `path` and the `execArgv`
 * before it (for spawn, `[...execArgv, path]`; for fork, as they are). From the run's esbuild bundle
 * when one was built with it, its folder in TEST_BUNDLE_DIR (npm test: scripts/test.mjs CHILD_ENTRIES;
 * the bench tier: test/bench/benches.test.ts), else through tsx (a file run by hand, TEST_BUNDLE=0):
 * src/main.ts took 8.6-9.2 s of CPU to listen through tsx and 3.5-4.0 s bundled,
 * bench/facilitatorProcess.ts 3.0-3.2 s and 1.2-1.4 s.
 */
export function childEntryOf(file: URL | string): { path: string; execArgv: string[] } {
  const path = typeof file === 'string' ? resolve(ROOT, file) : fileURLToPath(file);
  const bundled = bundleOf(path);
  return bundled ? { path: bundled, execArgv: ['--enable-source-maps'] } : { path, execArgv: ['--import', 'tsx'] };
}

/** `path`'s bundle in the run's folder (TEST_BUNDLE_DIR), if the run built one of it. */
function bundleOf(path: string): string | undefined {
  const folder = process.env.TEST_BUNDLE_DIR;
  const bundled = folder ? join(folder, relative(ROOT, path).replace(/\.ts$/, '.mjs')) : undefined;
  return bundled && existsSync(bundled) ? bundled : undefined;
}

/** Node's arguments that run `file` (childEntryOf): for spawn and execFile. */
export function nodeArgsOf(file: URL | string): string[] {
  const { path, execArgv } = childEntryOf(file);
  return [...execArgv, path];
}

/**
 * Imports one of the project's modules from the run's bundle when there is one (childEntryOf), else
 * from its source: for the Playwright processes, which otherwise compile every .ts the app is made
 * of with Babel (and not files under node_modules, where the bundle is): the browser tier took 65.4 s
 * of CPU with Playwright's compile cache empty, as in a fresh clone, and 48.1 s with it filled.
 */
export async function importEntry<Module>(file: URL): Promise<Module> {
  const bundled = bundleOf(fileURLToPath(file));
  return (await import(bundled ? pathToFileURL(bundled).href : file.href)) as Module;
}
