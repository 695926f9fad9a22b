// The two failures `npm run test:replicas` inflicts on the replicas while buyers pay.
import { check, sleep } from '../docker/checks.mjs';
import { inspect, must, run } from '../docker/commands.mjs';
import { waitHealthy } from '../docker/health.mjs';
import { NOTICE_MS, REPLICAS } from './settings.mjs';

/** Waits (at most 20 s) until the replica renders; says what it saw. */
async function waitRendering(container) {
  const address = Object.values(container.NetworkSettings.Networks)
    .map((network) => network.IPAddress)
    .find(Boolean);
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const text = await fetch(`http://${address}:8080/metrics`, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.text(),
      () => '',
    );
    const inUse = Number(/^render_pool_in_use (\d+)/m.exec(text)?.[1] ?? 0);
    if (inUse > 0) return `while rendering ${inUse} paid PDF${inUse > 1 ? 's' : ''}`;
    await sleep(20);
  }
  return 'not seen rendering within 20 s';
}

/**
 * A replica dies: SIGKILL, nothing drains (Docker's restart policy brings it back, as a Kubernetes
 * ReplicaSet would bring a new pod). Aimed at a moment it is rendering a paid PDF (its /metrics,
 * asked on its own network address, shows a page in use), so that a paid request dies with it
 * after the payment was verified.
 * The SIGKILL goes to every process of the container from inside it (kill(-1): all but its init and
 * the caller; the init, tini, then exits with its child): a crash, as an OOM kill would be.
 * `docker kill` would count as stopped by hand, and `restart: unless-stopped` leaves such a
 * container down (Docker 20.10: no restart in 30 s; Compose then started it at the rolling step
 * and refused to go on because its health was still the dead container's "unhealthy").
 */
export async function killWhileRendering(victim, mark) {
  const container = await inspect(victim);
  const restarts = container.RestartCount;
  const busy = await waitRendering(container);
  mark(`SIGKILL to replica ${victim.slice(0, 12)} (${busy})`);
  // Its exit status is not telling: the exec may be killed with the container.
  await run('docker', ['exec', victim, 'node', '-e', "process.kill(-1, 'SIGKILL')"], { timeoutMs: 20_000 });
  const deadline = Date.now() + 20_000;
  for (;;) {
    const now = await inspect(victim);
    if (now.RestartCount !== restarts || !now.State.Running) return;
    check(Date.now() < deadline, `replica ${victim.slice(0, 12)} still runs 20 s after the SIGKILL`);
    await sleep(100);
  }
}

/**
 * One rolling step as a Deployment does it (maxSurge 1, maxUnavailable 0): a new container of the
 * same image is started and healthy first; the old one gets the pre-stop notice (SIGUSR2: /readyz
 * turns 503), the notice period, then SIGTERM (drain) and is removed.
 */
export async function rollingStep(project, rolled, mark) {
  mark(`rolling step: starting a new replica to replace ${rolled.slice(0, 12)}`);
  const before = new Set(await project.ids('app'));
  await project.dc(['up', '-d', '--no-recreate', '--scale', `app=${REPLICAS + 1}`], { timeoutMs: 300_000 });
  const healthy = await waitHealthy(project, 'app', REPLICAS + 1, { pollMs: 250, expectRestarts: true });
  const fresh = [...healthy.keys()].find((id) => !before.has(id));
  mark(`new replica ${fresh?.slice(0, 12)} healthy; pre-stop notice (SIGUSR2) to ${rolled.slice(0, 12)}`);
  await must('docker', ['kill', '--signal', 'USR2', rolled]);
  await sleep(NOTICE_MS);
  mark(`SIGTERM to ${rolled.slice(0, 12)} (drain)`);
  await must('docker', ['stop', '--time', '45', rolled], { timeoutMs: 120_000 });
  await must('docker', ['rm', rolled]);
  mark(`${rolled.slice(0, 12)} stopped and removed`);
}
