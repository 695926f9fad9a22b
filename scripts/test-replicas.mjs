#!/usr/bin/env node
// `npm run test:replicas`: replicas failing under paid load. Not part of `npm test`: it needs
// Docker (root, or the docker group) and Compose, like `npm run test:compose` (on this project's
// machines it first runs ../shared/docker/build-standins.sh when Docker or the base images are
// missing: scripts/docker/prerequisites.mjs).
//   1. builds the images (docker-compose.yml) and starts 3 replicas of the service behind the load
//      balancer (HAProxy), with Redis and the local payment network. The replicas run as the
//      Kubernetes manifests run them (replicas-test/stack.mjs): read-only root file system,
//      /tmp as the only writable place, no capabilities, no privilege escalation.
//   2. buys PDFs in a steady stream (replicas-test/buyers.mjs: REPLICAS_BUYERS buyers, each one
//      purchase at a time with a pause of REPLICAS_PAUSE_MS between purchases: modest, the machine
//      is shared) while (replicas-test/failures.mjs)
//        - one replica is killed with SIGKILL (Docker's restart policy brings it back, as a
//          Kubernetes ReplicaSet would bring a new pod),
//        - another is replaced by a new container of the same image, one rolling step as a
//          Deployment does it (maxSurge 1, maxUnavailable 0).
//   3. re-sends the same PAYMENT-SIGNATURE for every purchase that got no PDF, as a client should,
//      until it gets the PDF or a definite answer (replicas-test/resend.mjs).
//   4. reads the chain: every settlement (AuthorizationUsed, Transfer to payTo) since the start
//      (replicas-test/chain.mjs).
//   5. reports requests, PDFs delivered, on-chain transfers, double settlements, payments taken
//      without a PDF delivered or collectable, the longest gap in service, the replicas' memory and
//      CPU; fails when a double settlement or a payment without its PDF is found, or when no PDF at
//      all was delivered after the failures (replicas-test/verdict.mjs).
//   6. `down -v` (the images are kept).
// The swarm mode of this Docker was tried first (docs/kubernetes.md, "Replica failures"): its
// service addresses (VIPs) do not answer here, so Compose drives the replicas.
// Environment: COMPOSE (as test:compose), REPLICAS_BUYERS (3), REPLICAS_PAUSE_MS (300),
// REPLICAS_PHASE_MS (15000: steady traffic before, between and after the two failures).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { check, runTest, seconds, sleep } from './docker/checks.mjs';
import { inspect } from './docker/commands.mjs';
import { http, waitHealthy, waitReady } from './docker/health.mjs';
import { prerequisites } from './docker/prerequisites.mjs';
import { buyer, buyInStream, isPdf } from './replicas-test/buyers.mjs';
import { chainHead, chainLogs } from './replicas-test/chain.mjs';
import { killWhileRendering, rollingStep } from './replicas-test/failures.mjs';
import { resendUntilDefinite } from './replicas-test/resend.mjs';
import { sampler } from './replicas-test/resources.mjs';
import { BUYERS, PAUSE_MS, PHASE_MS, PROJECT, REPLICAS } from './replicas-test/settings.mjs';
import { replicaProject } from './replicas-test/stack.mjs';
import { judge } from './replicas-test/verdict.mjs';

const work = mkdtempSync(join(tmpdir(), 'test-replicas-'));
const say = (line) => process.stdout.write(`[replicas-test] ${line}\n`);

/** Builds, starts the replicas and waits for them; answers their ids, oldest first. */
async function start(project) {
  let started = Date.now();
  await project.dc(['build'], { timeoutMs: 1_800_000 });
  say(`build: ${seconds(Date.now() - started)}`);
  started = Date.now();
  await project.dc(['up', '-d', '--scale', `app=${REPLICAS}`], { timeoutMs: 300_000 });
  const replicas = await waitHealthy(project, 'app', REPLICAS, { pollMs: 250, expectRestarts: true });
  await waitReady(project.base);
  say(`${REPLICAS} replicas healthy behind the load balancer in ${seconds(Date.now() - started)}`);
  return [...replicas.keys()];
}

/** The offer of an unpaid PDF request: the asset and payTo the settlements are looked up by. */
async function offer(url, body) {
  const unpaid = await http(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }, 90_000);
  check(unpaid.status === 402, `unpaid: ${unpaid.status}`);
  const required = JSON.parse(Buffer.from(unpaid.headers.get('payment-required'), 'base64').toString('utf8'));
  return required.accepts[0];
}

async function main() {
  const compose = await prerequisites(say);
  const project = await replicaProject(compose, work);
  const { base } = project;
  say(
    `project ${PROJECT}, published on ${base}; ${BUYERS} buyers, one purchase at a time each, ${PAUSE_MS} ms between purchases (modest: the machine is shared)`,
  );
  let passed = false;
  try {
    const [victim, rolled] = await start(project);
    const [pn] = await project.ids('payment-network');
    const idleSampler = sampler(() => project.ids('app'));
    await sleep(5_000);
    const idle = await idleSampler.stop();

    const schema = await (await http(`${base}/v1/schema`, {}, 90_000)).json();
    const body = JSON.stringify(schema.example);
    const url = `${base}/v1/invoice.pdf`;
    const { asset, payTo } = await offer(url, body);
    const fromBlock = await chainHead(pn);

    // The buyers: dev accounts 1…BUYERS.
    const ledger = { requests: 0, purchases: [] };
    const buyers = await Promise.all(Array.from({ length: BUYERS }, (_, i) => buyer(i + 1, url, body, ledger)));
    const stream = buyInStream(buyers, ledger);
    const events = [];
    const mark = (what) => {
      events.push({ at: Date.now(), what });
      say(`${seconds(Date.now() - trafficStart)}: ${what}`);
    };
    const trafficStart = Date.now();
    const loadSampler = sampler(() => project.ids('app'));
    await sleep(PHASE_MS);
    await killWhileRendering(victim, mark);
    await sleep(PHASE_MS);
    await rollingStep(project, rolled, mark);
    await sleep(PHASE_MS);
    await stream.stop();
    const trafficEnd = Date.now();
    const load = await loadSampler.stop();
    const victimState = (await inspect(victim)).State;
    say(
      `traffic stopped after ${seconds(trafficEnd - trafficStart)}; the killed replica was restarted by Docker's restart policy: ${victimState.Running ? `yes, running since ${victimState.StartedAt}` : 'no'}`,
    );

    const missing = ledger.purchases.filter((purchase) => purchase.signature && !isPdf(purchase.answer));
    const { collected, unanswered } = await resendUntilDefinite(missing, buyers[0], say);
    const logs = await chainLogs(pn, asset, payTo, fromBlock);
    judge({ ledger, collected, unanswered, logs, events, trafficStart, trafficEnd, idle, load }, say);
    passed = true;
  } finally {
    if (!passed) say(`last log lines of the stack:\n${await project.logs(15)}`);
    await project.down(say);
    rmSync(work, { recursive: true, force: true });
  }
  say('passed');
}

runTest(say, work, main);
