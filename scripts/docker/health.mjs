// Waiting for a Compose project to serve: its containers' health checks, then the service's
// /readyz through the load balancer.
import { check, Failure, seconds, sleep } from './checks.mjs';
import { inspect, run } from './commands.mjs';

/** fetch with a deadline, so that a stuck answer fails the run instead of hanging it. */
export async function http(url, init = {}, timeoutMs = 60_000) {
  return fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
}

/**
 * The time from a container's start to its first passing health check, from Docker's health log
 * (which keeps the last five checks; when the first success has rotated out, now).
 */
function startToHealthy(state) {
  const log = state.Health.Log ?? [];
  const first = log.findIndex((entry) => entry.ExitCode === 0);
  const exact = first > 0 || log.length < 5;
  const at = exact ? Date.parse(log[first].End) : Date.now();
  return at - Date.parse(state.StartedAt);
}

/**
 * Waits until `count` containers of the service are running and healthy at the same time; answers
 * them as a map from id to the time from start to healthy (undefined for the ids in `known`).
 * A container that exits or turns unhealthy stops the wait with its logs, unless `expectRestarts`
 * (a test that kills containers on purpose).
 */
export async function waitHealthy(
  project,
  service,
  count,
  { known = new Set(), timeoutMs = 180_000, pollMs = 100, expectRestarts = false } = {},
) {
  const deadline = Date.now() + timeoutMs;
  const firstSeen = new Map();
  for (;;) {
    const healthy = new Map();
    for (const id of await project.ids(service)) {
      const state = (await inspect(id)).State;
      if (state.Running && state.Health?.Status === 'healthy') {
        if (!firstSeen.has(id)) firstSeen.set(id, known.has(id) ? undefined : startToHealthy(state));
        healthy.set(id, firstSeen.get(id));
      } else if (!expectRestarts && (state.Status === 'exited' || state.Health?.Status === 'unhealthy')) {
        const logs = await run('docker', ['logs', '--tail', '30', id]);
        throw new Failure(
          `${service} ${id.slice(0, 12)} is ${state.Health?.Status ?? state.Status}:\n${logs.stdout}${logs.stderr}`,
        );
      }
    }
    if (healthy.size >= count) return healthy;
    check(Date.now() <= deadline, `${service}: ${healthy.size} of ${count} healthy after ${seconds(timeoutMs)}`);
    await sleep(pollMs);
  }
}

/** Waits until the service answers /readyz with 200 through the load balancer at `base`. */
export async function waitReady(base, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await http(`${base}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    check(Date.now() <= deadline, `${base}/readyz is not 200 after ${seconds(timeoutMs)} (last: ${status})`);
    await sleep(100);
  }
}
