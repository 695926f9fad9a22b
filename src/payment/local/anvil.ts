import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

export interface AnvilOptions {
  host: '127.0.0.1';
  /** 0 lets the OS pick a free port; anvil reports the one it bound. */
  port: number;
  chainId: number;
  accounts: number;
  startTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface Anvil {
  rpcUrl: string;
  close(): Promise<void>;
}

const STOP_GRACE_MS = 3_000;

// The binary ships in a per-platform optional dependency of @foundry-rs/anvil. Spawn it directly:
// its bin.mjs wrapper is one more node process between us and anvil.
function anvilBinary(): string {
  const arch = ({ x64: 'amd64', arm64: 'arm64' } as Record<string, string>)[process.arch];
  if (process.platform === 'win32' || !arch) {
    throw new Error(`local payment mode does not support ${process.platform}/${process.arch}`);
  }
  let anvilPackage: string;
  try {
    anvilPackage = createRequire(import.meta.url).resolve('@foundry-rs/anvil/package.json');
  } catch {
    // The production image (and `npm install --omit=dev`) leaves the local chain out on purpose.
    throw new Error(
      'local payment mode needs the dev dependency @foundry-rs/anvil, which is not installed here: run `npm install` for local use, or set FACILITATOR_URL and PAY_TO for production',
    );
  }
  const fromAnvilPackage = createRequire(anvilPackage);
  return fromAnvilPackage.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/bin/anvil`);
}

// anvil runs under a POSIX-shell watchdog that kills it when its stdin pipe (our end) closes. The
// kernel closes that pipe however this process ends (close(), crash, SIGKILL, a test-runner
// timeout), so anvil cannot outlive us holding a port. The shell's own stdin is the pipe; anvil,
// a background job of a non-interactive shell, gets /dev/null. The shell then lets go of
// stdout/stderr, so EOF on them means anvil itself has exited.
const WATCHDOG = '"$0" "$@" & pid=$!; exec >/dev/null 2>&1; while read -r _; do :; done; kill $pid; wait $pid';

export async function startAnvil(opts: AnvilOptions): Promise<Anvil> {
  const log = opts.log ?? (() => {});
  const args = [
    '--host',
    opts.host,
    '--port',
    String(opts.port),
    '--chain-id',
    String(opts.chainId),
    '--accounts',
    String(opts.accounts),
  ];
  // detached: a process group of its own, so a last-resort SIGKILL reaches the shell and anvil.
  const child = spawn('/bin/sh', ['-c', WATCHDOG, anvilBinary(), ...args], { stdio: 'pipe', detached: true });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const output = watchOutput(child, log);
  const stop = once(() => stopProcessGroup(child, exited));
  try {
    const port = await waitForListening(child, output, opts.startTimeoutMs ?? 15_000);
    const rpcUrl = `http://${opts.host}:${port}`;
    await waitForChainId(rpcUrl, opts.chainId, 5_000);
    log(`anvil: chain ${opts.chainId} on ${rpcUrl} (process group ${child.pid})`);
    let closing = false;
    output.ended.then(() => {
      // Its stderr (a panic, say) has already gone to the log line by line.
      if (!closing) log('anvil: exited unexpectedly');
    });
    return {
      rpcUrl,
      close: () => {
        closing = true;
        return stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface AnvilOutput {
  /** Last lines of stdout and stderr, for error messages. */
  recent: string[];
  onLine(listener: (line: string) => void): void;
  /** stdout reached EOF: anvil has exited. */
  ended: Promise<void>;
}

// stdout must be drained for anvil's whole life (it logs every RPC call; a full pipe would stall
// it), so it is read here once; only stderr goes to the log.
function watchOutput(child: ChildProcess, log: (line: string) => void): AnvilOutput {
  const recent: string[] = [];
  const listeners: ((line: string) => void)[] = [];
  const onLine = (line: string) => {
    recent.push(line);
    if (recent.length > 20) recent.shift();
    for (const listener of listeners) listener(line);
  };
  const stdout = createInterface({ input: child.stdout! });
  stdout.on('line', onLine);
  createInterface({ input: child.stderr! }).on('line', (line) => {
    onLine(line);
    log(`anvil: ${line}`);
  });
  return {
    recent,
    onLine: (listener) => listeners.push(listener),
    ended: new Promise((resolve) => stdout.once('close', () => resolve())),
  };
}

// Resolves with the port from anvil's "Listening on host:port" line (the bound one when asked for 0).
function waitForListening(child: ChildProcess, output: AnvilOutput, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, port?: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(port as number);
    };
    const fail = (why: string) => finish(new Error(`anvil ${why}\n${output.recent.join('\n')}`));
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs} ms`), timeoutMs);
    output.onLine((line) => {
      const match = /Listening on [^\s]+:(\d+)/.exec(line);
      if (match) finish(undefined, Number(match[1]));
    });
    output.ended.then(() => fail('exited before listening'));
    child.once('error', (error) => finish(error));
  });
}

async function waitForChainId(rpcUrl: string, chainId: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
        signal: AbortSignal.timeout(1_000),
      });
      const body = (await response.json()) as { result?: string };
      if (body.result !== undefined && Number(body.result) === chainId) return;
      lastError = new Error(`unexpected eth_chainId answer ${JSON.stringify(body)}`);
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`anvil at ${rpcUrl} not answering eth_chainId ${chainId}: ${String(lastError)}`);
}

// Polite first (EOF on stdin → the watchdog sends SIGTERM and waits), then SIGKILL to the group.
async function stopProcessGroup(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  child.stdin?.end();
  if (await within(exited, STOP_GRACE_MS)) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  await within(exited, STOP_GRACE_MS);
}

async function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const result = await Promise.race([promise.then(() => true as const), timeout]);
  clearTimeout(timer);
  return result;
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= fn());
}
