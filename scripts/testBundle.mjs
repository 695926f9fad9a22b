// The node test files of a run, bundled by esbuild into plain JavaScript once before they run
// (scripts/test.mjs). Loading a test file's sources through tsx's loader was most of a small test
// file's CPU: importing test/support/testApp.ts (the app and all it imports) took 4.4-5.1 s of CPU
// under tsx and 2.0 s bundled. One build for all the files, with the code they share in common
// chunks; npm packages bundled in too, but those that read files beside their sources; each source
// keeps its own import.meta.url (src/compute/sourceLocations.mjs); source maps point stack traces at
// the .ts.
// What a test starts by path (a .ts child process, a compute worker) loads as it did.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Bundles `files` (paths relative to `root`) into a folder of its own under node_modules/.cache
 * (so that the bundles' npm imports resolve as the sources' do); returns each file's bundle path
 * and a function that removes the folder.
 */
export async function bundleTests(root, files) {
  const esbuild = await import('esbuild');
  const { projectBundleOptions, checkBundledPackages } = await import(
    pathToFileURL(join(root, 'src', 'compute', 'sourceLocations.mjs')).href
  );
  const outdir = join(root, 'node_modules', '.cache', 'test-bundles', `${process.pid}-${Date.now()}`);
  mkdirSync(outdir, { recursive: true });
  const remove = () => rmSync(outdir, { recursive: true, force: true });
  try {
    const { metafile } = await esbuild.build({
      ...projectBundleOptions(root, outdir),
      entryPoints: files.map((file) => ({ in: join(root, file), out: file.replace(/\.ts$/, '') })),
      sourcemap: 'linked',
      logLevel: 'error',
    });
    checkBundledPackages(root, metafile);
  } catch (error) {
    remove();
    throw error;
  }
  return {
    bundleOf: (file) => join(outdir, file.replace(/\.ts$/, '.mjs')),
    outdir,
    remove,
  };
}
