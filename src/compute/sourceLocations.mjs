// How the project's TypeScript is bundled (bundledWorker.mjs, and the test files scripts/test.mjs
// bundles): ES modules for Node 20 sharing one copy of each module between entries, npm packages
// bundled in too (but those that find files beside their own sources), and each source keeping its
// own import.meta.url, .dirname and .filename (templates.ts and the tests find the project's files
// from them), not the bundle's. Plain JavaScript: it runs where no TypeScript loader is registered.
// Only development and tests load these bundles: `npm run build` compiles with tsc, packages apart.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * npm packages left as imports from node_modules: they read files beside their own sources (data
 * tables, .wasm, Lua scripts, a worker's file, a binary) through __dirname, import.meta.url or
 * require.resolve, which a bundle would point at itself. Bundling the others halved what loading the
 * app costs a test file: ~700 modules from node_modules (viem, puppeteer-core, zod, jose ...) took
 * 1.6-1.7 s of CPU to import, 0.7-0.9 s from the bundle (docs/development.md#tests).
 * `checkBundledPackages` fails a build that bundles a package doing so.
 */
const FILE_READING_PACKAGES = [
  '@seriousme/openapi-schema-validator',
  '@tootallnate/quickjs-emscripten',
  'brotli',
  'css-tree',
  'esbuild',
  'fontkit',
  'ioredis',
  'linebreak',
  'pino',
  'subset-font',
  'thread-stream',
  'typescript',
  'unicode-properties',
  'unicode-trie',
  'wawoff2',
  'yargs',
];
const FINDS_ITS_FILES = /__dirname|__filename|import\.meta\.url|require\.resolve/;

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
    external: FILE_READING_PACKAGES,
    // The CommonJS packages bundled in call require() for Node's modules (and the odd optional one):
    // an ES module has no require of its own.
    banner: {
      js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);",
    },
    metafile: true,
    outdir,
    outExtension: { '.js': '.mjs' },
    plugins: [sourceLocations(root)],
  };
}

/**
 * Throws when the build (its metafile) bundled a file of an npm package that finds files beside
 * its sources: it would look for them beside the bundle. Such a package joins FILE_READING_PACKAGES.
 * Reading the ~2,600 files takes about 60 ms.
 */
export function checkBundledPackages(root, metafile) {
  const found = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    // The metafile's paths use '/' on every platform.
    const at = input.lastIndexOf('node_modules/');
    if (at === -1 || !FINDS_ITS_FILES.test(readFileSync(join(root, input), 'utf8'))) continue;
    const [scope, name] = input.slice(at + 'node_modules/'.length).split('/');
    found.add(scope.startsWith('@') ? `${scope}/${name}` : scope);
  }
  if (found.size)
    throw new Error(
      `bundled npm package(s) that find files beside their sources (add them to FILE_READING_PACKAGES in src/compute/sourceLocations.mjs): ${[...found].join(', ')}`,
    );
}
