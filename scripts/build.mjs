#!/usr/bin/env node
// `npm run build`: compiles the service to JavaScript in dist/ and copies beside it the files it
// reads at run time, so that `node dist/src/main.js` runs without TypeScript or tsx (the Docker
// image runs exactly this). dist/ mirrors the repository's layout (see tsconfig.build.json).
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
// Files read from disk next to the compiled code: templates and styles (render/templates.ts,
// helpers/reminderDraft), the preview page's static assets (http/preview), and the test contracts
// local payment mode deploys (payment/local; it also needs the dev dependency @foundry-rs/anvil),
// and the ECDSA thread's plain JavaScript (payment/ecdsaThread.ts), which tsc leaves out.
const ASSETS = [
  'templates',
  'styles',
  'src/http/preview/page',
  'contracts/artifacts',
  'src/payment/ecdsaThreadWorker.mjs',
];

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
  cwd: root,
  stdio: 'inherit',
});
if (compiled.status !== 0) process.exit(compiled.status ?? 1);
for (const path of ASSETS) cpSync(join(root, path), join(dist, path), { recursive: true });
// The design studio's browser code (src/http/studio/client/, left out of the compile by
// tsconfig.build.json), bundled with its npm packages into dist/studio/: the built service serves
// these files and needs neither esbuild nor the packages (development dependencies) at run time.
const studio = await import(pathToFileURL(join(dist, 'src', 'http', 'studio', 'studioBundle.js')).href);
await studio.writeStudioBundle(join(root, 'src', 'http', 'studio', 'client'), join(dist, 'studio'));
process.stdout.write(`built ${dist}\n`);
