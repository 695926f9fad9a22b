#!/usr/bin/env node
// `npm run test:compose`: the Docker set-up as a user runs it, end to end. Not part of `npm test`:
// it needs Docker (root, or a user in the docker group) and builds images. On this project's
// machines, where Docker Hub is unreachable, it first runs ../shared/docker/build-standins.sh when
// Docker or the two base images are missing (scripts/docker/prerequisites.mjs).
//   1. builds the images (docker-compose.yml) and prints their sizes, layer by layer (compose-test/images.mjs)
//   2. `up`: one instance behind the load balancer, published on 127.0.0.1; time to healthy
//   3. the 402 names the published address; `npm run buy` buys a PDF through it (2, 3, 4: compose-test/instances.mjs)
//   4. `up --scale app=2`: both instances answer through the one address; a paid request
//   5. restarts Redis: same keys, the paid result is still served to a re-send, 409 for another body
//      (compose-test/redisRestart.mjs)
//   6. production file: refuses to start without its three variables; the image refuses a public
//      test account as PAY_TO (compose-test/production.mjs)
//   7. `down -v`: containers, networks and the volume are removed (the images are kept)
// Environment: COMPOSE ("docker compose" or "docker-compose"; default: v2 if present, else 1.29),
// TEST_COMPOSE_NO_CACHE=1 builds without Docker's layer cache (for the cold build time).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildImages } from './compose-test/images.mjs';
import { oneInstance, twoInstances } from './compose-test/instances.mjs';
import { productionRefusals } from './compose-test/production.mjs';
import { restartRedis } from './compose-test/redisRestart.mjs';
import { check, runTest } from './docker/checks.mjs';
import { prerequisites } from './docker/prerequisites.mjs';
import { composeProject } from './docker/project.mjs';

const PROJECT = 'invoice-pdf-x402-test';
const work = mkdtempSync(join(tmpdir(), 'test-compose-'));
const figures = [];
const say = (line) => process.stdout.write(`[compose-test] ${line}\n`);
/** A line of the summary printed at the end (timings and sizes), said as it is measured too. */
const figure = (line) => {
  figures.push(line);
  say(line);
};

async function main() {
  const compose = await prerequisites(say);
  const project = await composeProject(compose, PROJECT);
  say(`project ${PROJECT}, published on ${project.base}`);
  let torndown = false;
  let passed = false;
  try {
    await buildImages(project, { say, figure });
    const example = await oneInstance(project, work, { say, figure });
    const paid = await twoInstances(project, example.invoice, { say, figure });
    await restartRedis(project, example, paid, say);
    await productionRefusals(compose, work, say);
    passed = true;
  } finally {
    if (!passed) say(`last log lines of the stack:\n${await project.logs(25)}`);
    torndown = await project.down(say);
    rmSync(work, { recursive: true, force: true });
  }
  check(torndown, 'tear-down left parts of the stack behind');
  say(`passed. Figures:\n${figures.map((line) => `  ${line}`).join('\n')}`);
}

runTest(say, work, main);
