// An esbuild plugin for bundles of the project's TypeScript (bundledWorker.mjs, and the test files
// scripts/test.mjs bundles): each source keeps its own import.meta.url, .dirname and .filename
// (templates.ts and the tests find the project's files from them), not the bundle's. Plain
// JavaScript: it runs where no TypeScript loader is registered.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The plugin for sources under `root` (npm packages, under node_modules, are left as they are). */
export function sourceLocations(root) {
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
