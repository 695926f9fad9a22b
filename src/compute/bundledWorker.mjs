// A compute worker's start under tsx (development, tests): computeWorker.ts and its job module
// bundled by esbuild into plain JavaScript (npm packages bundled in, but those that read files
// beside their sources: sourceLocations.mjs), then run. Loading operationWorker.ts's ~300 modules
// through tsx's loader took 1.9-2.2 s of CPU per worker (every test app starts two); the bundle
// loads in about 0.6 s. The bundle is built once per content of its sources and kept under
// node_modules/.cache/compute-worker/ (so that its npm imports resolve as the sources' do): a
// worker whose sources changed since builds it again. Plain JavaScript, because this thread has
// no TypeScript loader. Built (`npm run build`), the pool runs computeWorker.js and never this.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';
import { checkBundledPackages, projectBundleOptions } from './sourceLocations.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORKER_SOURCE = fileURLToPath(new URL('./computeWorker.ts', import.meta.url));
const jobSource = fileURLToPath(workerData.jobModule);
const sha = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);
// One folder per job module: its bundles (one per content of the sources) and the sources' list.
const cache = join(ROOT, 'node_modules', '.cache', 'compute-worker', sha(jobSource));
const sourcesFile = join(cache, 'sources.json');

/** The hash of the sources' contents, or undefined when one is gone. */
function hashOf(sources) {
  const hash = createHash('sha256');
  for (const source of sources) {
    if (!existsSync(source)) return undefined;
    hash.update(source).update('\0').update(readFileSync(source)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function readSources() {
  try {
    return JSON.parse(readFileSync(sourcesFile, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Writes by rename, so that a worker of another process never reads a half-written file. */
function writeAtomically(path, text) {
  const partial = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(partial, text);
  renameSync(partial, path);
}

async function build() {
  const esbuild = await import('esbuild');
  const partial = join(cache, `building-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const result = await esbuild.build({
    ...projectBundleOptions(ROOT, partial),
    entryPoints: [
      { in: WORKER_SOURCE, out: 'worker' },
      { in: jobSource, out: 'job' },
    ],
    logLevel: 'silent',
  });
  checkBundledPackages(ROOT, result.metafile);
  // This file and the plugin shape the bundle too: a change to them builds it again. The npm
  // packages bundled in (~1,000 files, each worker's start would read them all) stand as the lock
  // npm writes under node_modules at each install.
  const sources = [
    ...Object.keys(result.metafile.inputs)
      .filter((input) => !input.includes('node_modules/'))
      .map((input) => join(ROOT, input)),
    join(ROOT, 'node_modules', '.package-lock.json'),
    fileURLToPath(import.meta.url),
    fileURLToPath(new URL('./sourceLocations.mjs', import.meta.url)),
  ];
  const hash = hashOf(sources);
  const folder = join(cache, hash);
  try {
    renameSync(partial, folder);
  } catch {
    // Another worker built the same sources first: theirs is as good.
    rmSync(partial, { recursive: true, force: true });
  }
  writeAtomically(sourcesFile, JSON.stringify(sources));
  removeOtherBundles(hash);
  return folder;
}

/**
 * Bundles of earlier contents of the sources: no worker starts from them again (sources.json now
 * names this content), and a worker already running has loaded its modules. Builds in progress
 * (building-*) are another process's and stay.
 */
function removeOtherBundles(hash) {
  for (const entry of readdirSync(cache, { withFileTypes: true }))
    if (entry.isDirectory() && entry.name !== hash && /^[0-9a-f]{16}$/.test(entry.name))
      rmSync(join(cache, entry.name), { recursive: true, force: true });
}

mkdirSync(cache, { recursive: true });
const sources = readSources();
const hash = sources && hashOf(sources);
const folder = hash && existsSync(join(cache, hash, 'worker.mjs')) ? join(cache, hash) : await build();
// computeWorker reads its job module from workerData: the bundled one.
workerData.jobModule = pathToFileURL(join(folder, 'job.mjs')).href;
await import(pathToFileURL(join(folder, 'worker.mjs')).href);
