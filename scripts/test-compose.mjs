#!/usr/bin/env node
// `npm run test:compose`: the Docker set-up as a user runs it, end to end. Not part of `npm test`:
// it needs Docker (root, or a user in the docker group) and builds images. On this project's
// machines, where Docker Hub is unreachable, it first runs ../shared/docker/build-standins.sh when
// Docker or the two base images are missing.
//   1. builds the images (docker-compose.yml) and prints their sizes, layer by layer
//   2. `up`: one instance behind the load balancer, published on 127.0.0.1; time to healthy
//   3. the 402 names the published address; `npm run buy` buys a PDF through it
//   4. `up --scale app=2`: both instances answer through the one address; a paid request
//   5. restarts Redis: same keys, the paid result is still served to a re-send, 409 for another body
//   6. production file: refuses to start without its three variables; the image refuses a public
//      test account as PAY_TO
//   7. `down -v`: containers, networks and the volume are removed (the images are kept)
// Environment: COMPOSE ("docker compose" or "docker-compose"; default: v2 if present, else 1.29),
// TEST_COMPOSE_NO_CACHE=1 builds without Docker's layer cache (for the cold build time).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setup } from './setup.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PROJECT = 'invoice-pdf-x402-test';
const IMAGES = {
  service: 'invoice-pdf-x402:local',
  'payment-network': 'invoice-pdf-x402-payment-network:local',
  lb: 'invoice-pdf-x402-lb:local',
};
const BASE_IMAGES = ['node:20-bookworm-slim', 'redis:7-bookworm'];
const STANDINS = join(root, '..', 'shared', 'docker', 'build-standins.sh');
const DEV_ACCOUNT_0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const work = mkdtempSync(join(tmpdir(), 'test-compose-'));
const figures = [];

const say = (line) => process.stdout.write(`[compose-test] ${line}\n`);
const figure = (line) => {
  figures.push(line);
  say(line);
};
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const megabytes = (bytes) => `${Math.round(bytes / 1e6)} MB`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
class Failure extends Error {}
function check(condition, message) {
  if (!condition) throw new Failure(message);
}

/**
 * Runs a command to completion; its output is returned, not shown. Asynchronous on purpose: a
 * blocked event loop would keep the HTTP client's idle connections past the load balancer's
 * keep-alive timeout, and the next request would meet a connection the other side has closed.
 */
function run(command, args, { timeoutMs = 120_000, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const finish = (status, error) => {
      clearTimeout(timer);
      resolve({
        status,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        error,
      });
    };
    child.once('error', (error) => finish(null, error));
    child.once('close', (code, signal) =>
      finish(code, signal ? new Error(`killed by ${signal} (timeout ${seconds(timeoutMs)})`) : undefined),
    );
  });
}
async function must(command, args, options) {
  const result = await run(command, args, options);
  if (result.status !== 0)
    throw new Failure(
      `${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${(result.stderr || result.stdout).trim().split('\n').slice(-25).join('\n')}`,
    );
  return result.stdout;
}

// --- Prerequisites --------------------------------------------------------------------------

async function dockerReady() {
  return (await run('docker', ['info'], { timeoutMs: 20_000 })).status === 0;
}
async function missingBaseImages() {
  const missing = [];
  for (const image of BASE_IMAGES)
    if ((await run('docker', ['image', 'inspect', image], { timeoutMs: 20_000 })).status !== 0) missing.push(image);
  return missing;
}
async function prerequisites() {
  setup([]); // npm dependencies (`npm run buy` and the paying client below), nothing else
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

// --- Helpers around the stack ---------------------------------------------------------------

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function inspect(container) {
  return JSON.parse(await must('docker', ['inspect', container], { timeoutMs: 20_000 }))[0];
}

/**
 * Waits until `count` containers of the service are healthy; answers, for each container not in
 * `known`, the time from its start to its first passing health check (from Docker's health log,
 * which keeps the last five checks; when the first success has rotated out, the time it was seen).
 */
async function waitHealthy(compose, service, count, known = new Set(), timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  const healthy = new Map();
  for (;;) {
    const ids = (await must(compose[0], [...compose.slice(1), '-p', PROJECT, 'ps', '-q', service]))
      .split('\n')
      .filter(Boolean);
    for (const id of ids) {
      if (healthy.has(id)) continue;
      const state = (await inspect(id)).State;
      if (state.Health?.Status === 'healthy') {
        const log = state.Health.Log ?? [];
        const first = log.findIndex((entry) => entry.ExitCode === 0);
        const exact = first > 0 || log.length < 5;
        const at = exact ? Date.parse(log[first].End) : Date.now();
        healthy.set(id, known.has(id) ? undefined : at - Date.parse(state.StartedAt));
      }
      if (state.Status === 'exited' || state.Health?.Status === 'unhealthy') {
        const logs = await run('docker', ['logs', '--tail', '30', id]);
        throw new Failure(
          `${service} ${id.slice(0, 12)} is ${state.Health?.Status ?? state.Status}:\n${logs.stdout}${logs.stderr}`,
        );
      }
    }
    if (healthy.size >= count) return healthy;
    if (Date.now() > deadline)
      throw new Failure(`${service}: ${healthy.size} of ${count} healthy after ${seconds(timeoutMs)}`);
    await sleep(100);
  }
}

async function http(url, init = {}) {
  return fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
}

async function waitReady(base, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await http(`${base}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline)
      throw new Failure(`${base}/readyz is not 200 after ${seconds(timeoutMs)} (last: ${status})`);
    await sleep(100);
  }
}

/** An x402 v2 buyer that keeps its PAYMENT-SIGNATURE, so the same payment can be sent again. */
async function payingClient(accountIndex) {
  const { tsImport } = await import('tsx/esm/api');
  const { devKey } = await tsImport('../src/payment/local/devAccounts.ts', import.meta.url);
  const { x402Client, x402HTTPClient } = await import('@x402/core/client');
  const { ExactEvmScheme } = await import('@x402/evm/exact/client');
  const { privateKeyToAccount } = await import('viem/accounts');
  const client = new x402Client().register(
    'eip155:*',
    new ExactEvmScheme(privateKeyToAccount(devKey(accountIndex).privateKey)),
  );
  const httpClient = new x402HTTPClient(client);
  return async function pay(url, body) {
    const post = (headers = {}) =>
      http(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const challenge = await post();
    check(challenge.status === 402, `unpaid request: expected 402, got ${challenge.status}`);
    const required = httpClient.getPaymentRequiredResponse(
      (name) => challenge.headers.get(name),
      await challenge.json().catch(() => undefined),
    );
    const signature = httpClient.encodePaymentSignatureHeader(await client.createPaymentPayload(required));
    return { signature, ...(await send(url, body, signature)) };
  };
}

async function send(url, body, signature) {
  const response = await http(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signature },
    body,
  });
  const receipt = response.headers.get('payment-response');
  return {
    status: response.status,
    pdf: Buffer.from(await response.arrayBuffer()),
    receipt: receipt ? JSON.parse(Buffer.from(receipt, 'base64').toString('utf8')) : undefined,
  };
}

// --- The test -------------------------------------------------------------------------------

async function main() {
  const compose = await prerequisites();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { HTTP_PORT: String(port) };
  const dc = (args, options = {}) =>
    must(compose[0], [...compose.slice(1), '-p', PROJECT, ...args], { ...options, env: { ...env, ...options.env } });
  say(`project ${PROJECT}, published on ${base}`);

  let torndown = false;
  let passed = false;
  try {
    // 1. Build.
    let started = Date.now();
    const noCache = process.env.TEST_COMPOSE_NO_CACHE === '1';
    const buildLog = await run(
      compose[0],
      [...compose.slice(1), '-p', PROJECT, 'build', ...(noCache ? ['--no-cache'] : [])],
      { env, timeoutMs: 1_800_000 },
    );
    check(
      buildLog.status === 0,
      `build failed:\n${(buildLog.stdout + buildLog.stderr).split('\n').slice(-30).join('\n')}`,
    );
    figure(`build (${noCache ? 'no cache' : "with Docker's layer cache"}): ${seconds(Date.now() - started)}`);
    for (const [name, image] of Object.entries(IMAGES))
      figure(`image ${name} (${image}): ${megabytes((await inspect(image)).Size)}`);
    const layers = (
      await must('docker', ['history', '--no-trunc', '--format', '{{.Size}}\t{{.CreatedBy}}', IMAGES.service])
    )
      .split('\n')
      .filter((line) => line && !line.startsWith('0B'))
      .map(
        (line) =>
          `  ${line.split('\t')[0].padStart(8)}  ${line
            .split('\t')[1]
            .replace(/^\/bin\/sh -c (#\(nop\) )?/, '')
            .replace(/\s+/g, ' ')
            .slice(0, 110)}`,
      );
    say(`layers of ${IMAGES.service}, newest first:\n${layers.join('\n')}`);
    const serviceSize = (await inspect(IMAGES.service)).Size;
    check(serviceSize <= 1e9, `the service image is ${megabytes(serviceSize)}: above 1 GB`);
    if (serviceSize > 800e6) say(`WARNING: the service image is above the 800 MB target`);
    const devOnly = [
      'typescript',
      'tsx',
      'esbuild',
      'solc',
      '@foundry-rs/anvil',
      'pino-pretty',
      '@x402/fetch',
      '@playwright/test',
    ];
    const contents = await must('docker', [
      'run',
      '--rm',
      '--network',
      'none',
      '--entrypoint',
      'sh',
      IMAGES.service,
      '-c',
      `cd /app/node_modules && for p in ${devOnly.join(' ')}; do [ -e "$p/package.json" ] && echo "package $p"; done; find /app -name '*.ts' | head -3; true`,
    ]);
    check(contents.trim() === '', `the service image holds development files:\n${contents}`);
    const cmd = (await inspect(IMAGES.service)).Config.Cmd.join(' ');
    check(cmd === 'node dist/src/main.js', `the service image runs ${cmd}`);
    say(`service image: runs \`${cmd}\`; none of ${devOnly.join(', ')} and no .ts file in it`);

    // 2. Up: one instance.
    started = Date.now();
    await dc(['up', '-d'], { timeoutMs: 300_000 });
    const [firstStart] = (await waitHealthy(compose, 'app', 1)).values();
    await waitReady(base);
    figure(
      `up -d until /readyz answers 200 through the load balancer: ${seconds(Date.now() - started)}; app container start to healthy: ${seconds(firstStart)}${firstStart <= 5000 ? '' : ' (ABOVE the 5 s target)'}`,
    );

    // 3. The 402 names the published address; `npm run buy` pays through it.
    const schema = await (await http(`${base}/v1/schema`)).json();
    const invoice = JSON.stringify(schema.example);
    writeFileSync(join(work, 'invoice.json'), invoice);
    const challenge = await http(`${base}/v1/invoice.pdf`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: invoice,
    });
    check(challenge.status === 402, `unpaid PDF: expected 402, got ${challenge.status}`);
    const required = JSON.parse(
      Buffer.from(challenge.headers.get('payment-required') ?? '', 'base64').toString('utf8'),
    );
    check(
      required.resource?.url === `${base}/v1/invoice.pdf`,
      `the 402's resource.url is ${required.resource?.url}, not the published ${base}/v1/invoice.pdf`,
    );
    check(required.accepts?.[0]?.payTo === DEV_ACCOUNT_0, `payTo is ${required.accepts?.[0]?.payTo}`);
    say(`402 names ${required.resource.url}, payTo ${required.accepts[0].payTo} (the local chain's dev account 0)`);
    const bought = await run(
      'npm',
      ['run', '--silent', 'buy', '--', join(work, 'invoice.json'), join(work, 'bought.pdf')],
      { env: { SERVICE_URL: base }, timeoutMs: 180_000 },
    );
    check(bought.status === 0, `npm run buy failed:\n${bought.stdout}${bought.stderr}`);
    check(
      readFileSync(join(work, 'bought.pdf')).subarray(0, 5).toString() === '%PDF-',
      'npm run buy saved something that is not a PDF',
    );
    say(`npm run buy (SERVICE_URL=${base}): ${bought.stdout.split('\n')[0]}`);

    // 4. Two instances behind the one address.
    started = Date.now();
    const before = new Set((await dc(['ps', '-q', 'app'])).split('\n').filter(Boolean));
    await dc(['up', '-d', '--scale', 'app=2'], { timeoutMs: 300_000 });
    const starts = await waitHealthy(compose, 'app', 2, before);
    const secondStart = [...starts.values()].find((ms) => ms !== undefined);
    figure(
      `scale to 2: second instance start to healthy ${seconds(secondStart)}; up -d --scale app=2 until both healthy ${seconds(Date.now() - started)}`,
    );
    const served = new Map();
    const ids = [...starts.keys()];
    for (let i = 0; i < 60 && served.size < 2; i++) {
      const requestId = `compose-test-${i}`;
      const response = await http(`${base}/v1/invoice/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': requestId },
        body: invoice,
      });
      check(response.status === 200, `validate through the load balancer: ${response.status}`);
      await sleep(250);
      for (const id of ids)
        if ((await run('docker', ['logs', id])).stdout.includes(requestId)) served.set(id, (served.get(id) ?? 0) + 1);
    }
    check(served.size === 2, `only ${served.size} of 2 instances served requests through ${base}`);
    say(`both instances answer through ${base} (load balancer: HAProxy, instances found through Docker's DNS)`);
    const pay = await payingClient(2);
    const paid = await pay(`${base}/v1/invoice.pdf`, invoice);
    check(
      paid.status === 200 && paid.pdf.subarray(0, 5).toString() === '%PDF-' && paid.receipt?.success === true,
      `paid request with two instances: ${paid.status} ${JSON.stringify(paid.receipt)}`,
    );
    say(
      `paid through the load balancer with two instances: 200, ${paid.pdf.length} bytes, transaction ${paid.receipt.transaction}`,
    );

    // 5. Restart Redis: nothing lost.
    const keysBefore = Number((await dc(['exec', '-T', 'redis', 'redis-cli', 'DBSIZE'])).trim());
    check(keysBefore >= 2, `Redis holds ${keysBefore} keys after two paid requests`);
    await dc(['restart', 'redis'], { timeoutMs: 120_000 });
    await waitHealthy(compose, 'redis', 1);
    const keysAfter = Number((await dc(['exec', '-T', 'redis', 'redis-cli', 'DBSIZE'])).trim());
    check(keysAfter === keysBefore, `Redis had ${keysBefore} keys before the restart and ${keysAfter} after`);
    let again;
    // The instances reconnect to Redis on their own; until then a paid request is a 503 (never charged).
    for (let i = 0; i < 40; i++) {
      again = await send(`${base}/v1/invoice.pdf`, invoice, paid.signature);
      if (again.status !== 503) break;
      await sleep(500);
    }
    check(
      again.status === 200 && again.pdf.equals(paid.pdf) && again.receipt?.transaction === paid.receipt.transaction,
      `re-send after the Redis restart: ${again.status}, same PDF ${again.pdf.equals(paid.pdf)}, receipt ${JSON.stringify(again.receipt)}`,
    );
    const otherBody = JSON.stringify({ ...schema.example, invoice_number: 'INV-OTHER-1' });
    const conflict = await send(`${base}/v1/invoice.pdf`, otherBody, paid.signature);
    check(
      conflict.status === 409,
      `same signature, other body after the restart: expected 409, got ${conflict.status}`,
    );
    const fresh = await (await payingClient(3))(`${base}/v1/invoice.pdf`, invoice);
    check(fresh.status === 200, `a new payment after the Redis restart: ${fresh.status}`);
    say(
      `Redis restarted: ${keysBefore} keys before, ${keysAfter} after; the re-sent payment got the same PDF and transaction, another body under it 409, a new payment 200`,
    );

    // 6. Production: three required variables, and no public test account as payTo.
    const emptyEnvFile = join(work, 'empty.env');
    writeFileSync(emptyEnvFile, '');
    const production = {
      FACILITATOR_URL: 'https://facilitator.example',
      PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
      PUBLIC_BASE_URL: 'https://invoices.example',
    };
    const clean = Object.fromEntries(Object.keys(production).map((name) => [name, '']));
    for (const name of Object.keys(production)) {
      const result = await run(
        compose[0],
        [...compose.slice(1), '--env-file', emptyEnvFile, '-f', 'docker-compose.production.yml', 'config'],
        { env: { ...clean, ...production, [name]: '' } },
      );
      // Compose 1.29 prints the service's whole environment block before the message; v2 only the message.
      const message = result.stderr.slice(result.stderr.lastIndexOf('}') + 1);
      check(
        result.status !== 0 && message.includes(`set ${name} to`),
        `production file without ${name}: exit ${result.status}, ${message.trim()}`,
      );
    }
    const config = await run(
      compose[0],
      [...compose.slice(1), '--env-file', emptyEnvFile, '-f', 'docker-compose.production.yml', 'config'],
      { env: { ...production, LOCAL_TEST_CHAIN: 'on' } },
    );
    check(
      config.status === 0 && /LOCAL_TEST_CHAIN: ['"]?off/.test(config.stdout),
      'production file with all three set: config fails or LOCAL_TEST_CHAIN is not forced off',
    );
    say(
      'production file: each of FACILITATOR_URL, PAY_TO, PUBLIC_BASE_URL missing stops Compose with its message; LOCAL_TEST_CHAIN is off whatever the environment says',
    );
    const refused = await run(
      'docker',
      [
        'run',
        '--rm',
        '--network',
        'none',
        '-e',
        `FACILITATOR_URL=${production.FACILITATOR_URL}`,
        '-e',
        `PUBLIC_BASE_URL=${production.PUBLIC_BASE_URL}`,
        '-e',
        `PAY_TO=${DEV_ACCOUNT_0}`,
        IMAGES.service,
      ],
      { timeoutMs: 60_000 },
    );
    check(
      refused.status === 2 && /public anvil\/Hardhat test mnemonic/.test(refused.stderr),
      `the image with a public test account as PAY_TO: exit ${refused.status}\n${refused.stderr}`,
    );
    say(
      `the service image with PAY_TO=${DEV_ACCOUNT_0} and a facilitator: exit 2, "${refused.stderr
        .split('\n')
        .find((line) => line.includes('PAY_TO'))
        ?.trim()
        .slice(0, 110)}…"`,
    );
    passed = true;
  } finally {
    if (!passed) {
      const logs = await run(compose[0], [...compose.slice(1), '-p', PROJECT, 'logs', '--no-color', '--tail', '25'], {
        env,
      });
      say(`last log lines of the stack:\n${logs.stdout}${logs.stderr}`);
    }
    // 7. Tear down.
    const down = await run(
      compose[0],
      [...compose.slice(1), '-p', PROJECT, 'down', '-v', '--remove-orphans', '--timeout', '45'],
      { env, timeoutMs: 180_000 },
    );
    const left = (
      await run('docker', ['ps', '-aq', '--filter', `label=com.docker.compose.project=${PROJECT}`])
    ).stdout.trim();
    const volumes = (
      await run('docker', ['volume', 'ls', '-q', '--filter', `label=com.docker.compose.project=${PROJECT}`])
    ).stdout.trim();
    torndown = down.status === 0 && !left && !volumes;
    say(
      `down -v: ${torndown ? 'no container, network or volume of the project left' : `FAILED (exit ${down.status}; containers: ${left || 'none'}; volumes: ${volumes || 'none'})`}; images kept`,
    );
    rmSync(work, { recursive: true, force: true });
  }
  check(torndown, 'tear-down left parts of the stack behind');
  say(`passed. Figures:\n${figures.map((line) => `  ${line}`).join('\n')}`);
}

main().catch((error) => {
  rmSync(work, { recursive: true, force: true });
  say(
    `FAILED: ${error instanceof Failure ? error.message : `${error?.stack ?? String(error)}${error?.cause ? `\ncause: ${error.cause.stack ?? error.cause}` : ''}`}`,
  );
  process.exit(1);
});
