// What the Docker tests need before they start: the npm dependencies, a Docker Engine this user may
// use, the two base images, and a Compose. On this project's machines, where Docker Hub is
// unreachable, ../shared/docker/build-standins.sh installs Docker and builds local stand-ins of the
// base images when Docker or the images are missing; elsewhere the build pulls them.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setup } from '../setup.mjs';
import { Failure, seconds } from './checks.mjs';
import { root, run } from './commands.mjs';

const BASE_IMAGES = ['node:20-bookworm-slim', 'redis:7-bookworm'];
const STANDINS = join(root, '..', 'shared', 'docker', 'build-standins.sh');

async function dockerReady() {
  return (await run('docker', ['info'], { timeoutMs: 20_000 })).status === 0;
}

async function missingBaseImages() {
  const missing = [];
  for (const image of BASE_IMAGES)
    if ((await run('docker', ['image', 'inspect', image], { timeoutMs: 20_000 })).status !== 0) missing.push(image);
  return missing;
}

/**
 * Makes sure Docker and the base images are there (building the stand-ins where it can) and
 * answers the Compose to use as a command line: COMPOSE ("docker compose" or "docker-compose") when
 * set, else the v2 plugin when present, else docker-compose (1.29).
 */
export async function prerequisites(say) {
  setup([]); // npm dependencies (`npm run buy` and the paying clients), nothing else
  const missing = (await dockerReady()) ? await missingBaseImages() : ['docker'];
  if (missing.length && existsSync(STANDINS)) {
    say(
      `missing: ${missing.join(', ')}; running ${STANDINS} (Docker Hub is unreachable here: it installs Docker and builds local stand-ins of ${BASE_IMAGES.join(' and ')}, ~3 min)`,
    );
    const started = Date.now();
    const built = spawnSync('bash', [STANDINS], { stdio: 'inherit', timeout: 900_000 });
    if (built.status !== 0) throw new Failure(`${STANDINS} failed`);
    say(`stand-ins built in ${seconds(Date.now() - started)}`);
  } else if (missing.includes('docker')) {
    throw new Failure(
      'needs Docker: a running Docker Engine this user may use (root, or the docker group) and Compose (the v2 plugin, or docker-compose 1.29+). ' +
        'On Debian: apt-get install docker.io docker-compose, then start dockerd. The build pulls node:20-bookworm-slim and redis:7-bookworm from Docker Hub.',
    );
  } else if (missing.length) {
    say(`${missing.join(' and ')} not present: the build pulls them from Docker Hub`);
  }
  const compose =
    process.env.COMPOSE?.split(' ') ??
    ((await run('docker', ['compose', 'version'], { timeoutMs: 20_000 })).status === 0
      ? ['docker', 'compose']
      : ['docker-compose']);
  const version = await run(compose[0], [...compose.slice(1), 'version'], { timeoutMs: 20_000 });
  if (version.status !== 0)
    throw new Failure(
      `no Compose: \`${compose.join(' ')} version\` failed. Install docker-compose (1.29+) or the compose v2 plugin, or set COMPOSE.`,
    );
  say(`using ${compose.join(' ')}: ${version.stdout.split('\n')[0]}`);
  return compose;
}
