import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One file the studio page loads, as it is served: bytes, media type and an ETag of the bytes. */
interface StudioFile {
  body: Buffer;
  /** The same bytes gzipped once (the script is 0.9 MB, 0.3 MB gzipped), for browsers that accept it. */
  gzipped: Buffer;
  type: string;
  etag: string;
}

/** The files under /studio/, by name. */
export type StudioFiles = ReadonlyMap<string, StudioFile>;

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Bundles the studio's browser code (client/) with esbuild: the page script with CodeMirror and
 * pdf.js, pdf.js's worker, and the stylesheet, all from npm packages, so that the page loads
 * nothing from another origin. esbuild is a development dependency, imported only here: the
 * production image runs the files `npm run build` wrote (writeStudioBundle) and never bundles.
 */
export async function bundleStudio(clientDir: string, root = PROJECT_ROOT): Promise<StudioFiles> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [
      { in: join(clientDir, 'main.ts'), out: 'studio' },
      { in: join(clientDir, 'studio.css'), out: 'studio' },
      // Already minified by pdf.js; bundled as is so that it is served like the rest.
      { in: 'pdfjs-dist/build/pdf.worker.min.mjs', out: 'pdf.worker' },
    ],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome120', 'firefox121', 'safari17'],
    minify: true,
    legalComments: 'eof',
    outdir: '/studio',
    write: false,
    logLevel: 'silent',
  });
  return new Map(
    result.outputFiles.map((file) => {
      const name = file.path.slice('/studio/'.length);
      return [name, studioFile(name, Buffer.from(file.contents))];
    }),
  );
}

/**
 * `npm run build`: the bundle as files in `outDir` (dist/studio/), which the built service reads.
 * scripts/build.mjs imports it from dist/ once compiled, where knip does not follow it.
 * @public
 */
export async function writeStudioBundle(clientDir: string, outDir: string): Promise<void> {
  const files = await bundleStudio(clientDir);
  await mkdir(outDir, { recursive: true });
  await Promise.all([...files].map(([name, file]) => writeFile(join(outDir, name), file.body)));
}

/** The files `npm run build` wrote. */
export async function readStudioBundle(dir: string): Promise<StudioFiles> {
  const names = (await readdir(dir)).filter((name) => Object.keys(TYPES).some((ext) => name.endsWith(ext)));
  if (names.length === 0) throw new Error(`no studio bundle in ${dir}: run npm run build`);
  return new Map(
    await Promise.all(names.map(async (name) => [name, studioFile(name, await readFile(join(dir, name)))] as const)),
  );
}

function studioFile(name: string, body: Buffer): StudioFile {
  const type = TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream';
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, gzipped: gzipSync(body, { level: 9 }), type, etag };
}
