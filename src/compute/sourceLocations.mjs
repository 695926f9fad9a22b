// How the project's TypeScript is bundled (bundledWorker.mjs, and the test files scripts/test.mjs
// bundles): ES modules for Node 20 sharing one copy of each module between entries, npm packages
// left as imports, and each source keeping its own import.meta.url, .dirname and .filename
// (templates.ts and the tests find the project's files from them), not the bundle's. Plain
// JavaScript: it runs where no TypeScript loader is registered.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The plugin for sources under `root` (npm packages, under node_modules, are left as they are). */
function sourceLocations(root) {
  return {
    name: 'source-locations',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        const inside = relative(root, args.path);
        if (inside.startsWith('..') || isAbsolute(inside) || inside.split(/[\\/]/).includes('node_modules'))
          return undefined;
        const contents = readFileSync(args.path, 'utf8')
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path));
        return { contents, loader: 'ts', resolveDir: dirname(args.path) };
      });
    },
  };
}

/** esbuild options both bundles share, for sources under `root`, written to `outdir` as .mjs. */
export function projectBundleOptions(root, outdir) {
  return {
    absWorkingDir: root,
    bundle: true,
    // One copy of each module shared by the entries (errors.ts's classes among them).
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outdir,
    outExtension: { '.js': '.mjs' },
    plugins: [sourceLocations(root)],
  };
}
