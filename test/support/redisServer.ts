import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RedisServer {
  url: string;
  port: number;
  /** Kills the server (an outage, or the end of the tests). Safe to call twice. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty (nothing is persisted). */
  restart(): Promise<void>;
}

const REDIS_SERVER = '/usr/bin/redis-server';
const START_TIMEOUT_MS = 10_000;
const STOP_GRACE_MS = 3_000;

// Same watchdog as anvil's (src/payment/local/anvil.ts): a shell that kills redis-server when its
// stdin pipe (our end) closes, which the kernel does however this process ends (crash, SIGKILL,
// test-runner timeout), so no redis-server outlives a test run holding a port.
const WATCHDOG = '"$0" "$@" & pid=$!; exec >/dev/null 2>&1; while read -r _; do :; done; kill $pid; wait $pid';

/** A real, throwaway redis-server on 127.0.0.1 with a free port, no persistence, in a temp dir. */
export async function startRedisServer(): Promise<RedisServer> {
  if (!existsSync(REDIS_SERVER)) throw new Error('redis-server is not installed: apt-get install -y redis-server');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'redis-test-'));
  let running: Running | undefined = await launch(port, dir);

  const stop = async () => {
    const current = running;
    running = undefined;
    await current?.stop();
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
    async restart() {
      await stop();
      mkdirSync(dir, { recursive: true }); // in case stop() already removed it
      running = await launch(port, dir);
    },
  };
}

interface Running {
  stop(): Promise<void>;
}

async function launch(port: number, dir: string): Promise<Running> {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    '--daemonize',
    'no',
  ];
  // detached: a process group of its own, so a last-resort SIGKILL reaches the shell and redis.
  const child = spawn('/bin/sh', ['-c', WATCHDOG, REDIS_SERVER, ...args], { stdio: 'pipe', detached: true });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Drained for the server's whole life (a full pipe would stall it); the tail explains a failed start.
  const recent: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      recent.push(line);
      if (recent.length > 20) recent.shift();
    });
  }
  const stop = () => stopProcessGroup(child, exited);
  try {
    await waitForPong(port, exited, START_TIMEOUT_MS);
    return { stop };
  } catch (error) {
    await stop();
    throw new Error(`redis-server on port ${port} did not start: ${(error as Error).message}\n${recent.join('\n')}`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForPong(port: number, exited: Promise<void>, timeoutMs: number): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no answer';
  while (Date.now() < deadline) {
    if (gone) throw new Error('the process exited');
    try {
      if ((await ping(port)).startsWith('+PONG')) return;
      lastError = 'PING was not answered with PONG';
    } catch (error) {
      lastError = (error as Error).message;
    }
    await sleep(25);
  }
  throw new Error(`no PONG within ${timeoutMs} ms (${lastError})`);
}

function ping(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let answer = '';
    socket.setTimeout(1_000, () => socket.destroy(new Error('PING timed out')));
    socket.once('error', reject);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (answer.includes('\r\n')) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.once('close', () => reject(new Error('connection closed before an answer')));
  });
}

// Polite first (EOF on stdin → the watchdog sends SIGTERM and waits), then SIGKILL to the group.
async function stopProcessGroup(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  child.stdin?.end();
  // Unref'd: a grace timer must not keep the test process alive after the server is gone.
  const timer = (ms: number) => sleep(ms, 'timeout' as const, { ref: false });
  if ((await Promise.race([exited.then(() => 'exited' as const), timer(STOP_GRACE_MS)])) === 'exited') return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  await Promise.race([exited, timer(STOP_GRACE_MS)]);
}
