// One Compose project of a Docker test: its name, its files, the free port of 127.0.0.1 its load
// balancer is published on, the commands that act on it, and its tear-down.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { Failure } from './checks.mjs';
import { must, run } from './commands.mjs';

const PORT_RANGE = '/proc/sys/net/ipv4/ip_local_port_range';

function bindable(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free port of 127.0.0.1 below the kernel's ephemeral range. The port is published only at `up`,
 * after the build (a minute or more): a port from the ephemeral range (what port 0 gives) was taken
 * meanwhile, on a machine where other tests listen on port 0 and connect out ("bind: address already
 * in use" from Docker's proxy).
 */
async function freePort() {
  const range = existsSync(PORT_RANGE) ? readFileSync(PORT_RANGE, 'utf8').trim().split(/\s+/).map(Number) : [];
  // Where the ephemeral range starts low, 10000–20000 still is the least likely to be taken.
  const below = Math.max(Math.min(range[0] ?? 32768, 32768), 20_000);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * (below - 10_000));
    if (await bindable(port)) return port;
  }
  throw new Failure(`no free port of 127.0.0.1 between 10000 and ${below} after 100 tries`);
}

/**
 * `compose` is the Compose command line (from prerequisites()), `name` the project (`-p`), `files`
 * the compose files (none: Compose's default, docker-compose.yml in the repository's root).
 */
export async function composeProject(compose, name, files = []) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // The one variable docker-compose.yml reads: the published port, which also makes the address the
  // 402 names.
  const env = { HTTP_PORT: String(port) };
  const [command, ...prefix] = compose;
  const line = (args) => [...prefix, '-p', name, ...files.flatMap((file) => ['-f', file]), ...args];
  const withEnv = (options = {}) => ({ ...options, env: { ...env, ...options.env } });
  /** A Compose command on the project; a Failure unless it exits with 0. Answers its output. */
  const dc = (args, options) => must(command, line(args), withEnv(options));
  return {
    name,
    base,
    dc,
    /** A Compose command on the project whose outcome the caller judges. */
    run: (args, options) => run(command, line(args), withEnv(options)),
    /** The ids of the service's containers. */
    ids: async (service) => (await dc(['ps', '-q', service])).split('\n').filter(Boolean),
    /** The last `tail` log lines of every container (said when a run fails). */
    async logs(tail) {
      const logs = await run(command, line(['logs', '--no-color', '--tail', String(tail)]), withEnv());
      return `${logs.stdout}${logs.stderr}`;
    },
    /**
     * `down -v` (the images are kept); true when Compose succeeded and no container, network or
     * volume with the project's label is left.
     */
    async down(say) {
      const down = await run(command, line(['down', '-v', '--remove-orphans', '--timeout', '45']), {
        ...withEnv(),
        timeoutMs: 180_000,
      });
      const label = `label=com.docker.compose.project=${name}`;
      const left = async (...list) => (await run('docker', [...list, '-q', '--filter', label])).stdout.trim();
      const containers = await left('ps', '-a');
      const networks = await left('network', 'ls');
      const volumes = await left('volume', 'ls');
      const torndown = down.status === 0 && !containers && !networks && !volumes;
      say(
        `down -v: ${torndown ? 'no container, network or volume of the project left' : `FAILED (exit ${down.status}; containers: ${containers || 'none'}; networks: ${networks || 'none'}; volumes: ${volumes || 'none'})`}; images kept`,
      );
      return torndown;
    },
  };
}
