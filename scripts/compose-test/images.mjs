// Step 1 of `npm run test:compose`: builds the images and checks what the service image holds.
import { check, seconds } from '../docker/checks.mjs';
import { inspect, must } from '../docker/commands.mjs';

export const IMAGES = {
  service: 'invoice-pdf-x402:local',
  'payment-network': 'invoice-pdf-x402-payment-network:local',
  lb: 'invoice-pdf-x402-lb:local',
};
const megabytes = (bytes) => `${Math.round(bytes / 1e6)} MB`;
// Development packages that must stay out of the service image (the build stage has them).
const DEV_ONLY = [
  'typescript',
  'tsx',
  'esbuild',
  'solc',
  '@foundry-rs/anvil',
  'pino-pretty',
  '@x402/fetch',
  '@playwright/test',
];

/** The service image's layers that add bytes, newest first, one line each. */
async function layers() {
  return (await must('docker', ['history', '--no-trunc', '--format', '{{.Size}}\t{{.CreatedBy}}', IMAGES.service]))
    .split('\n')
    .filter((line) => line && !line.startsWith('0B'))
    .map(
      (line) =>
        `  ${line.split('\t')[0].padStart(8)}  ${line
          .split('\t')[1]
          .replace(/^\/bin\/sh -c (#\(nop\) )?/, '')
          .replace(/\s+/g, ' ')
          .slice(0, 110)}`,
    );
}

/**
 * Builds the images (TEST_COMPOSE_NO_CACHE=1: without Docker's layer cache, for the cold build
 * time); figures: the build time and each image's size. Checks the service image's size (≤ 1 GB,
 * a warning above the 800 MB target), that it holds no development package and no .ts file, and
 * that it runs the compiled service.
 */
export async function buildImages(project, { say, figure }) {
  const started = Date.now();
  const noCache = process.env.TEST_COMPOSE_NO_CACHE === '1';
  const build = await project.run(['build', ...(noCache ? ['--no-cache'] : [])], { timeoutMs: 1_800_000 });
  check(build.status === 0, `build failed:\n${(build.stdout + build.stderr).split('\n').slice(-30).join('\n')}`);
  figure(`build (${noCache ? 'no cache' : "with Docker's layer cache"}): ${seconds(Date.now() - started)}`);
  for (const [name, image] of Object.entries(IMAGES))
    figure(`image ${name} (${image}): ${megabytes((await inspect(image)).Size)}`);
  say(`layers of ${IMAGES.service}, newest first:\n${(await layers()).join('\n')}`);
  const serviceSize = (await inspect(IMAGES.service)).Size;
  check(serviceSize <= 1e9, `the service image is ${megabytes(serviceSize)}: above 1 GB`);
  if (serviceSize > 800e6) say(`WARNING: the service image is above the 800 MB target`);
  const contents = await must('docker', [
    'run',
    '--rm',
    '--network',
    'none',
    '--entrypoint',
    'sh',
    IMAGES.service,
    '-c',
    `cd /app/node_modules && for p in ${DEV_ONLY.join(' ')}; do [ -e "$p/package.json" ] && echo "package $p"; done; find /app -name '*.ts' | head -3; true`,
  ]);
  check(contents.trim() === '', `the service image holds development files:\n${contents}`);
  const cmd = (await inspect(IMAGES.service)).Config.Cmd.join(' ');
  check(cmd === 'node dist/src/main.js', `the service image runs ${cmd}`);
  say(`service image: runs \`${cmd}\`; none of ${DEV_ONLY.join(', ')} and no .ts file in it`);
}
