// SIGTERM with parses in flight, on the real entry point: every request already received gets its
// real answer (the compute pool closes only after the server has), a new connection is refused,
// and the process exits 0. Before main.ts closed the pool last, 12 such requests got 11 × 503 and a 500.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { after, before, test } from 'node:test';
import { EXAMPLE_EINVOICE } from '../../src/einvoice/example.js';
import { nodeArgsOf } from '../support/childEntry.js';

let child: ChildProcess;
let url = '';
const lines: string[] = [];
/** Resolves with the first log line whose `msg` is `message`. */
const logged = (message: string) =>
  new Promise<void>((resolve) => {
    const check = () => lines.some((line) => line.includes(`"msg":"${message}"`));
    if (check()) return resolve();
    reader.on('line', function onLine() {
      if (!check()) return;
      reader.off('line', onLine);
      resolve();
    });
  });
let reader: ReturnType<typeof createInterface>;

before(
  async () => {
    child = spawn(process.execPath, nodeArgsOf('src/main.ts'), {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: '0',
        LOCAL_CHAIN_PORT: '0',
        LOCAL_FACILITATOR_PORT: '0',
        LOG_LEVEL: 'info',
        // One worker: most of the twelve bodies are still queued for it when SIGTERM arrives.
        COMPUTE_THREADS: '1',
        SHUTDOWN_DEADLINE_MS: '60000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr!.on('data', (chunk) => lines.push(String(chunk)));
    reader = createInterface({ input: child.stdout! });
    reader.on('line', (line) => lines.push(line));
    // Start-up through tsx with other files beside this one passed 60 s at load 25 (process.test.ts).
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    await logged('listening');
    clearTimeout(timer);
    const entry = lines
      .map((line) => JSON.parse(line) as { msg?: string; url?: string })
      .find((e) => e.msg === 'listening');
    url = entry!.url!;
  },
  { timeout: 160_000 },
);

after(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

/**
 * What a new connection gets: the error code when it is refused (or reset because it was still
 * in the listen backlog as the listener closed), else what came back. Raw TCP, so no client pool
 * can reuse an older socket.
 */
function newConnectionOutcome(): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in 10 s')));
    socket.on('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: Error & { code?: string }) => resolve(error.code ?? error.message));
    socket.on('close', () =>
      resolve(chunks.length ? `an answer: ${Buffer.concat(chunks).toString().split('\r\n')[0]}` : 'ECONNRESET'),
    );
  });
}

/** A POST on a connection of its own; `sent` resolves once the whole body is written. */
function post(path: string, body: string) {
  const req = request(`${url}${path}`, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    timeout: 60_000,
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('no answer in 60 s')));
  });
  const sent = once(req, 'finish');
  req.end(body);
  return { sent, answer };
}

test('SIGTERM with 12 parses of 200-line bodies in flight: all 12 answered 200, new connections refused', async () => {
  const body = JSON.stringify({
    ...(EXAMPLE_EINVOICE as Record<string, unknown>),
    line_items: Array.from({ length: 200 }, (_, i) => ({
      description: `${i} Consulting and engineering work, itemised`,
      quantity: 12.5,
      unit_price: 98.4321,
      unit: 'HUR',
      tax_rate: 19,
    })),
  });
  const calls = Array.from({ length: 12 }, () => post('/v1/e-invoice/validate', body));
  await Promise.all(calls.map((call) => call.sent));
  // The twelve connections were queued before this one, so once it is answered the server has
  // accepted them all: they are requests already received.
  const health = await fetch(`${url}/healthz`, { headers: { connection: 'close' } });
  assert.equal(health.status, 200);

  child.kill('SIGTERM');
  await logged('draining');
  const late = await newConnectionOutcome();
  assert.ok(
    ['ECONNREFUSED', 'ECONNRESET', 'closed without an answer'].includes(late),
    `a new connection is refused once draining; got ${late}`,
  );
  const answers = await Promise.all(calls.map((call) => call.answer));
  assert.deepEqual(
    answers.map((answer) => answer.status),
    Array<number>(12).fill(200),
    answers.map((answer) => answer.body.slice(0, 200)).join('\n'),
  );
  for (const answer of answers) assert.equal((JSON.parse(answer.body) as { valid?: unknown }).valid, true);

  const [code] = (await once(child, 'exit')) as [number | null];
  assert.equal(code, 0, lines.slice(-5).join('\n'));
  assert.doesNotMatch(lines.join('\n'), /compute worker exited|shutting_down/);
});
