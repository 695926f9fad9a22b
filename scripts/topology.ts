// `npm run topology`: the multi-instance deployment without Docker, on loopback — redis-server,
// the local payment network, and two service instances sharing both (ports 8081 and 8082).
// Put any load balancer in front, or call the two ports directly. Ctrl-C stops everything.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { devAccount } from '../src/payment/local/devAccounts.js';

const REDIS_PORT = Number(process.env.TOPOLOGY_REDIS_PORT ?? 6390);
const CHAIN_PORT = 8545;
const FACILITATOR_PORT = 8546;
const INSTANCE_PORTS = [8081, 8082];
const children: ChildProcess[] = [];

function start(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  readyWhen: RegExp,
): Promise<void> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s`)), 60_000);
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        process.stdout.write(`[${name}] ${line}\n`);
        if (readyWhen.test(line)) {
          clearTimeout(timer);
          resolve();
        }
      });
    }
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
}

async function stopAll() {
  for (const child of children.reverse()) child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 2000));
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  process.exit(0);
}
process.once('SIGINT', () => void stopAll());
process.once('SIGTERM', () => void stopAll());

try {
  await start(
    'redis',
    'redis-server',
    ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {},
    /Ready to accept connections/,
  );
  await start(
    'payments',
    process.execPath,
    ['--import', 'tsx', 'scripts/local-payment-network.ts'],
    { LOCAL_CHAIN_PORT: String(CHAIN_PORT), LOCAL_FACILITATOR_PORT: String(FACILITATOR_PORT) },
    /local payment network ready/,
  );
  await Promise.all(
    INSTANCE_PORTS.map((port) =>
      start(
        `service:${port}`,
        process.execPath,
        ['--import', 'tsx', 'src/main.ts'],
        {
          PORT: String(port),
          FACILITATOR_URL: `http://127.0.0.1:${FACILITATOR_PORT}`,
          PAY_TO: devAccount(0).address,
          LOCAL_TEST_CHAIN: 'on',
          REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}`,
          NODE_ENV: 'production',
        },
        /"msg":"listening"/,
      ),
    ),
  );
  process.stdout.write(
    `\nready: instances on ${INSTANCE_PORTS.map((port) => `http://127.0.0.1:${port}`).join(' and ')}, sharing redis://127.0.0.1:${REDIS_PORT} and the facilitator on :${FACILITATOR_PORT}. Pay with SERVICE_URL=http://127.0.0.1:8081 npm run buy -- invoice.json out.pdf\n`,
  );
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  await stopAll();
}
