#!/usr/bin/env node
// `npm run test:replicas`: replicas failing under paid load. Not part of `npm test`: it needs
// Docker (root, or the docker group) and Compose, like `npm run test:compose` (which it follows;
// on this project's machines it first runs ../shared/docker/build-standins.sh when Docker or the
// base images are missing).
//   1. builds the images (docker-compose.yml) and starts 3 replicas of the service behind the load
//      balancer (HAProxy), with Redis and the local payment network. The replicas run as the
//      Kubernetes manifests run them (deploy/base/deployment.yaml): read-only root file system,
//      /tmp as the only writable place, no capabilities, no privilege escalation.
//   2. buys PDFs in a steady stream (REPLICAS_BUYERS buyers, each one purchase at a time with a
//      pause of REPLICAS_PAUSE_MS between purchases: modest, the machine is shared) while
//        - one replica is killed with SIGKILL (Docker's restart policy brings it back, as a
//          Kubernetes ReplicaSet would bring a new pod),
//        - another is replaced by a new container of the same image, one rolling step as a
//          Deployment does it (maxSurge 1, maxUnavailable 0): the new one is started and healthy
//          first; the old one gets the pre-stop notice (SIGUSR2: /readyz turns 503), the notice
//          period, then SIGTERM (drain) and is removed.
//   3. re-sends the same PAYMENT-SIGNATURE for every purchase that got no PDF, as a client should,
//      until it gets the PDF or a definite answer.
//   4. reads the chain: every settlement (AuthorizationUsed, Transfer to payTo) since the start.
//   5. reports requests, PDFs delivered, on-chain transfers, double settlements, payments taken
//      without a PDF delivered or collectable, the longest gap in service; fails when a double
//      settlement or a payment without its PDF is found, or when no PDF at all was delivered
//      after the failures.
//   6. `down -v` (the images are kept).
// The swarm mode of this Docker was tried first (docs/kubernetes.md, "Replica failures"): its
// service addresses (VIPs) do not answer here, so Compose drives the replicas.
// Environment: COMPOSE (as test:compose), REPLICAS_BUYERS (3), REPLICAS_PAUSE_MS (300),
// REPLICAS_PHASE_MS (15000: steady traffic before, between and after the two failures).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setup } from './setup.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PROJECT = 'invoice-pdf-x402-replicas';
const REPLICAS = 3;
const BASE_IMAGES = ['node:20-bookworm-slim', 'redis:7-bookworm'];
const STANDINS = join(root, '..', 'shared', 'docker', 'build-standins.sh');
const BUYERS = Number(process.env.REPLICAS_BUYERS ?? 3);
const PAUSE_MS = Number(process.env.REPLICAS_PAUSE_MS ?? 300);
const PHASE_MS = Number(process.env.REPLICAS_PHASE_MS ?? 15_000);
// The notice period of the rolling step: HAProxy checks /readyz every second and takes a server out
// after two failures (docker/lb/haproxy.cfg); deploy/base/deployment.yaml waits 10 s for slower
// endpoint propagation.
const NOTICE_MS = 3_000;
// Shorter authorizations than the default 300 s, so that a claim orphaned by the killed replica
// (it died before settling) expires within the run; longer than the payment store's lease (60 s),
// so that work it parked before settling can still be collected (src/payment/paymentProcessor.ts).
const MAX_TIMEOUT_SECONDS = 150;
const work = mkdtempSync(join(tmpdir(), 'test-replicas-'));

const say = (line) => process.stdout.write(`[replicas-test] ${line}\n`);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
class Failure extends Error {}
function check(condition, message) {
  if (!condition) throw new Failure(message);
}

/** Runs a command to completion, asynchronously (the paying clients keep running meanwhile). */
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

// --- Prerequisites (as scripts/test-compose.mjs) --------------------------------------------

async function prerequisites() {
  setup([]);
  const dockerUp = (await run('docker', ['info'], { timeoutMs: 20_000 })).status === 0;
  const missing = [];
  if (!dockerUp) missing.push('docker');
  else
    for (const image of BASE_IMAGES)
      if ((await run('docker', ['image', 'inspect', image], { timeoutMs: 20_000 })).status !== 0) missing.push(image);
  if (missing.length && existsSync(STANDINS)) {
    say(
      `missing: ${missing.join(', ')}; running ${STANDINS} (installs Docker and builds local stand-ins of ${BASE_IMAGES.join(' and ')}, ~3 min)`,
    );
    const built = spawnSync('bash', [STANDINS], { stdio: 'inherit', timeout: 900_000 });
    if (built.status !== 0) throw new Failure(`${STANDINS} failed`);
  } else if (missing.includes('docker')) {
    throw new Failure(
      'needs Docker: a running Docker Engine this user may use (root, or the docker group) and Compose (the v2 plugin, or docker-compose 1.29+). On Debian: apt-get install docker.io docker-compose, then start dockerd.',
    );
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

// --- The stack ------------------------------------------------------------------------------

/** docker-compose.yml plus the restrictions of deploy/base/deployment.yaml for the replicas. */
function overrideFile() {
  const path = join(work, 'replicas.override.yml');
  // JSON is YAML: no YAML writer needed.
  writeFileSync(
    path,
    JSON.stringify({
      services: {
        app: {
          read_only: true,
          tmpfs: ['/tmp'],
          cap_drop: ['ALL'],
          security_opt: ['no-new-privileges:true'],
          environment: { MAX_TIMEOUT_SECONDS: String(MAX_TIMEOUT_SECONDS) },
        },
      },
    }),
  );
  return path;
}

function stack(compose, env) {
  const files = ['-f', join(root, 'docker-compose.yml'), '-f', overrideFile()];
  const dc = (args, options = {}) =>
    must(compose[0], [...compose.slice(1), '-p', PROJECT, ...files, ...args], {
      ...options,
      env: { ...env, ...options.env },
    });
  const inspect = async (id) => JSON.parse(await must('docker', ['inspect', id], { timeoutMs: 20_000 }))[0];
  const ids = async (service) => (await dc(['ps', '-q', service])).split('\n').filter(Boolean);
  return {
    dc,
    inspect,
    ids,
    /** Waits until `count` containers of the service are running and healthy. */
    async healthy(service, count, timeoutMs = 180_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const healthy = [];
        for (const id of await ids(service)) {
          const state = (await inspect(id)).State;
          if (state.Running && state.Health?.Status === 'healthy') healthy.push(id);
        }
        if (healthy.length >= count) return healthy;
        if (Date.now() > deadline)
          throw new Failure(`${service}: ${healthy.length} of ${count} healthy after ${seconds(timeoutMs)}`);
        await sleep(250);
      }
    },
    async down() {
      const down = await run(
        compose[0],
        [...compose.slice(1), '-p', PROJECT, ...files, 'down', '-v', '--remove-orphans', '--timeout', '45'],
        { env, timeoutMs: 180_000 },
      );
      const left = (
        await run('docker', ['ps', '-aq', '--filter', `label=com.docker.compose.project=${PROJECT}`])
      ).stdout.trim();
      return down.status === 0 && !left;
    },
  };
}

async function http(url, init = {}) {
  return fetch(url, { ...init, signal: AbortSignal.timeout(90_000) });
}

// --- Buying ---------------------------------------------------------------------------------

/** An x402 v2 buyer (dev account `index` of the local chain) that keeps each signature to re-send. */
async function buyer(index, url, body, ledger) {
  const { tsImport } = await import('tsx/esm/api');
  const { devKey } = await tsImport('../src/payment/local/devAccounts.ts', import.meta.url);
  const { x402Client, x402HTTPClient } = await import('@x402/core/client');
  const { ExactEvmScheme } = await import('@x402/evm/exact/client');
  const { privateKeyToAccount } = await import('viem/accounts');
  const client = new x402Client().register(
    'eip155:*',
    new ExactEvmScheme(privateKeyToAccount(devKey(index).privateKey)),
  );
  const httpClient = new x402HTTPClient(client);
  const post = async (headers = {}) => {
    ledger.requests += 1;
    try {
      const response = await http(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      const receipt = response.headers.get('payment-response');
      return {
        status: response.status,
        headers: response.headers,
        bytes,
        receipt: receipt ? JSON.parse(Buffer.from(receipt, 'base64').toString('utf8')) : undefined,
      };
    } catch (error) {
      return { status: 0, bytes: Buffer.alloc(0), error: error.cause?.code ?? error.message };
    }
  };
  return {
    /** One purchase: a 402 challenge, then the paid request. Unanswered challenges are retried. */
    async purchase() {
      const started = Date.now();
      const challenge = await post();
      if (challenge.status !== 402) return { started, ended: Date.now(), unpaid: challenge.status || challenge.error };
      const required = httpClient.getPaymentRequiredResponse(
        (name) => challenge.headers.get(name),
        JSON.parse(challenge.bytes.toString('utf8')),
      );
      const payload = await client.createPaymentPayload(required);
      const signature = httpClient.encodePaymentSignatureHeader(payload);
      const answer = await post(signature);
      return {
        started,
        ended: Date.now(),
        signature,
        nonce: payload.payload.authorization.nonce.toLowerCase(),
        answer,
      };
    },
    resend: (signature) => post(signature),
  };
}

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

/** The error code of a JSON error answer (the 402's x402 reason, a 409's code). */
function reason(answer) {
  try {
    const body = JSON.parse(answer.bytes.toString('utf8'));
    return body.error?.code ?? body.error ?? body.code ?? '';
  } catch {
    return '';
  }
}

const isPdf = (answer) => answer.status === 200 && answer.bytes.subarray(0, 5).toString() === '%PDF-';

// --- The chain (inside the payment-network container: its RPC listens on its own loopback) ----

async function chainLogs(pn, asset, payTo, fromBlock) {
  const { keccak256, toHex, pad } = await import('viem');
  const used = keccak256(toHex('AuthorizationUsed(address,bytes32)'));
  const transfer = keccak256(toHex('Transfer(address,address,uint256)'));
  const script = `
    const [asset, fromBlock, used, transfer, payTo] = process.argv.slice(1);
    const rpc = async (method, params) => (await (await fetch('http://127.0.0.1:' + (process.env.LOCAL_CHAIN_PORT || 8545), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()).result;
    const head = await rpc('eth_blockNumber', []);
    const used_ = await rpc('eth_getLogs', [{ address: asset, fromBlock, toBlock: 'latest', topics: [used] }]);
    const transfers = await rpc('eth_getLogs', [{ address: asset, fromBlock, toBlock: 'latest', topics: [transfer, null, payTo] }]);
    console.log(JSON.stringify({ head, used: used_, transfers }));`;
  const out = await must(
    'docker',
    [
      'exec',
      pn,
      'node',
      '--input-type=module',
      '-e',
      script,
      asset,
      fromBlock,
      used,
      transfer,
      pad(payTo.toLowerCase()),
    ],
    { timeoutMs: 60_000 },
  );
  return JSON.parse(out.trim().split('\n').pop());
}

async function chainHead(pn) {
  const script = `const r = await fetch('http://127.0.0.1:' + (process.env.LOCAL_CHAIN_PORT || 8545), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }) }); console.log((await r.json()).result);`;
  return (
    await must('docker', ['exec', pn, 'node', '--input-type=module', '-e', script], { timeoutMs: 60_000 })
  ).trim();
}

// --- Resources: what deploy/base/deployment.yaml's requests and limits are taken from -------

const MIB = 1024 * 1024;
const toBytes = (text) => {
  const [, number, unit] = /^([\d.]+)\s*([KMG]i?B|B)$/.exec(text.trim()) ?? [];
  return Number(number) * ({ B: 1, KiB: 1024, KB: 1e3, MiB: MIB, MB: 1e6, GiB: 1024 * MIB, GB: 1e9 }[unit] ?? NaN);
};

/** Samples `docker stats` of the given containers until stopped: peak memory and CPU per container. */
function sampler(ids) {
  const peaks = new Map();
  const samples = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const out = await run(
        'docker',
        ['stats', '--no-stream', '--format', '{{.ID}}\t{{.CPUPerc}}\t{{.MemUsage}}', ...(await ids())],
        { timeoutMs: 30_000 },
      );
      for (const line of out.stdout.split('\n').filter(Boolean)) {
        const [id, cpu, memory] = line.split('\t');
        const sample = { cpu: Number.parseFloat(cpu), memory: toBytes(memory.split('/')[0]) };
        if (!Number.isFinite(sample.cpu) || !Number.isFinite(sample.memory)) continue;
        samples.push(sample);
        const peak = peaks.get(id) ?? { cpu: 0, memory: 0 };
        peaks.set(id, { cpu: Math.max(peak.cpu, sample.cpu), memory: Math.max(peak.memory, sample.memory) });
      }
      await sleep(1_000);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const memory = [...peaks.values()].map((peak) => peak.memory);
      const cpu = [...peaks.values()].map((peak) => peak.cpu);
      const mean = (values) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
      return {
        samples: samples.length,
        peakMemoryMiB: Math.round(Math.max(0, ...memory) / MIB),
        meanMemoryMiB: Math.round(mean(samples.map((sample) => sample.memory)) / MIB),
        peakCpuPercent: Math.round(Math.max(0, ...cpu)),
        meanCpuPercent: Math.round(mean(samples.map((sample) => sample.cpu))),
      };
    },
  };
}

// --- The test -------------------------------------------------------------------------------

async function main() {
  const compose = await prerequisites();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { HTTP_PORT: String(port) };
  const s = stack(compose, env);
  say(
    `project ${PROJECT}, published on ${base}; ${BUYERS} buyers, one purchase at a time each, ${PAUSE_MS} ms between purchases (modest: the machine is shared)`,
  );
  let passed = false;
  try {
    let started = Date.now();
    await s.dc(['build'], { timeoutMs: 1_800_000 });
    say(`build: ${seconds(Date.now() - started)}`);
    started = Date.now();
    await s.dc(['up', '-d', '--scale', `app=${REPLICAS}`], { timeoutMs: 300_000 });
    const first = await s.healthy('app', REPLICAS);
    for (let i = 0; ; i++) {
      const status = await http(`${base}/readyz`).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) break;
      check(i < 600, `${base}/readyz is ${status} after a minute`);
      await sleep(100);
    }
    say(`${REPLICAS} replicas healthy behind the load balancer in ${seconds(Date.now() - started)}`);
    const [pn] = await s.ids('payment-network');
    const idle = await sampler(() => s.ids('app'));
    await sleep(5_000);
    const idleFigures = await idle.stop();

    // The offer: which asset, paid to whom.
    const schema = await (await http(`${base}/v1/schema`)).json();
    const body = JSON.stringify(schema.example);
    const url = `${base}/v1/invoice.pdf`;
    const offer = await http(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    check(offer.status === 402, `unpaid: ${offer.status}`);
    const required = JSON.parse(Buffer.from(offer.headers.get('payment-required'), 'base64').toString('utf8'));
    const { asset, payTo } = required.accepts[0];
    const fromBlock = await chainHead(pn);

    // The buyers: dev accounts 1…BUYERS, one purchase at a time each.
    const ledger = { requests: 0, purchases: [] };
    const buyers = await Promise.all(Array.from({ length: BUYERS }, (_, i) => buyer(i + 1, url, body, ledger)));
    let buying = true;
    const loops = buyers.map(async (b) => {
      while (buying) {
        ledger.purchases.push(await b.purchase());
        await sleep(PAUSE_MS);
      }
    });
    const events = [];
    const mark = (what) => {
      events.push({ at: Date.now(), what });
      say(`${seconds(Date.now() - trafficStart)}: ${what}`);
    };
    const trafficStart = Date.now();
    const load = sampler(() => s.ids('app'));
    await sleep(PHASE_MS);

    // A replica dies: SIGKILL, nothing drains. Aimed at a moment it is rendering a paid PDF (its
    // /metrics, asked on its own network address, shows a page in use), so that a paid request dies
    // with it after the payment was verified.
    const [victim, rolled] = first;
    const busy = await waitRendering(await s.inspect(victim));
    mark(`SIGKILL to replica ${victim.slice(0, 12)} (${busy})`);
    await must('docker', ['kill', '--signal', 'KILL', victim]);
    await sleep(PHASE_MS);

    // A rolling step: a new container of the same image first, then the old one leaves gracefully.
    mark(`rolling step: starting a new replica to replace ${rolled.slice(0, 12)}`);
    const before = new Set(await s.ids('app'));
    await s.dc(['up', '-d', '--no-recreate', '--scale', `app=${REPLICAS + 1}`], { timeoutMs: 300_000 });
    const fresh = (await s.healthy('app', REPLICAS + 1)).find((id) => !before.has(id));
    mark(`new replica ${fresh?.slice(0, 12)} healthy; pre-stop notice (SIGUSR2) to ${rolled.slice(0, 12)}`);
    await must('docker', ['kill', '--signal', 'USR2', rolled]);
    await sleep(NOTICE_MS);
    mark(`SIGTERM to ${rolled.slice(0, 12)} (drain)`);
    await must('docker', ['stop', '--time', '45', rolled], { timeoutMs: 120_000 });
    await must('docker', ['rm', rolled]);
    mark(`${rolled.slice(0, 12)} stopped and removed`);
    await sleep(PHASE_MS);
    buying = false;
    await Promise.all(loops);
    const trafficEnd = Date.now();
    const loadFigures = await load.stop();
    const victimState = (await s.inspect(victim)).State;
    say(
      `traffic stopped after ${seconds(trafficEnd - trafficStart)}; the killed replica was restarted by Docker's restart policy: ${victimState.Running ? `yes, running since ${victimState.StartedAt}` : 'no'}`,
    );

    // Re-send the same signature for every purchase without a PDF, as a client should.
    const paid = ledger.purchases.filter((purchase) => purchase.signature);
    const missing = paid.filter((purchase) => !isPdf(purchase.answer));
    const collected = [];
    const unanswered = [];
    await Promise.all(
      missing.map(async (purchase) => {
        const deadline = Date.now() + (MAX_TIMEOUT_SECONDS + 30) * 1000;
        let answer = purchase.answer;
        const seen = [answer.status || answer.error];
        while (!isPdf(answer) && Date.now() < deadline) {
          await sleep(2_000);
          answer = await buyers[0].resend(purchase.signature);
          seen.push(
            answer.status ? `${answer.status}${answer.status >= 400 ? ` ${reason(answer)}` : ''}` : answer.error,
          );
          // A definite 402 (never charged, or the authorization expired): no point asking again.
          if (answer.status === 402) break;
        }
        purchase.final = answer;
        (isPdf(answer) ? collected : unanswered).push(purchase);
        const after = seconds(Date.now() - purchase.ended);
        say(
          `purchase ${purchase.nonce.slice(0, 10)}…: ${[...new Set(seen)].join(' → ')}${isPdf(answer) ? ` (PDF collected by re-sending the same signature, ${after} after the first answer)` : ` (definite after ${after})`}`,
        );
      }),
    );

    // The chain.
    const logs = await chainLogs(pn, asset, payTo, fromBlock);
    const settlementsByNonce = new Map();
    for (const log of logs.used) {
      const nonce = log.topics[2].toLowerCase();
      settlementsByNonce.set(nonce, [...(settlementsByNonce.get(nonce) ?? []), log.transactionHash]);
    }
    const ours = new Map(paid.map((purchase) => [purchase.nonce, purchase]));
    const doubles = [...settlementsByNonce.values()].filter((txs) => txs.length > 1).length;
    const foreign = [...settlementsByNonce.keys()].filter((nonce) => !ours.has(nonce));
    const delivered = (purchase) => isPdf(purchase.final ?? purchase.answer);
    const takenWithoutPdf = [...settlementsByNonce.keys()].filter(
      (nonce) => ours.has(nonce) && !delivered(ours.get(nonce)),
    );
    const pdfWithoutPayment = paid.filter((purchase) => delivered(purchase) && !settlementsByNonce.has(purchase.nonce));
    // A PDF collected after its settler died may name no transaction (the re-settle only heard
    // "already used"): counted apart; a receipt naming a transaction must name the right one.
    const receiptOf = (purchase) => (purchase.final ?? purchase.answer).receipt;
    const receiptMismatch = paid.filter(
      (purchase) =>
        delivered(purchase) &&
        receiptOf(purchase)?.transaction &&
        !settlementsByNonce.get(purchase.nonce)?.includes(receiptOf(purchase).transaction),
    );
    const receiptWithoutTransaction = paid.filter(
      (purchase) => delivered(purchase) && !receiptOf(purchase)?.transaction,
    );
    const transferTxs = new Set(logs.transfers.map((log) => log.transactionHash));
    const usedTxs = new Set(logs.used.map((log) => log.transactionHash));
    const transfersWithoutAuthorization = [...transferTxs].filter((tx) => !usedTxs.has(tx));

    // Service: the longest time without a PDF being delivered, while traffic ran.
    const successes = paid
      .filter((purchase) => isPdf(purchase.answer))
      .map((purchase) => purchase.ended)
      .sort((a, b) => a - b);
    // From the first PDF on (the first purchase of each buyer includes its own start-up).
    let gap = { ms: 0, from: trafficStart };
    const marks = [...successes, trafficEnd];
    for (let i = 1; i < marks.length; i++)
      if (marks[i] - marks[i - 1] > gap.ms) gap = { ms: marks[i] - marks[i - 1], from: marks[i - 1] };
    const failedFirst = paid.filter((purchase) => !isPdf(purchase.answer));
    const statuses = {};
    for (const purchase of failedFirst)
      statuses[purchase.answer.status || purchase.answer.error] =
        (statuses[purchase.answer.status || purchase.answer.error] ?? 0) + 1;
    const unpaidFailures = ledger.purchases.filter((purchase) => !purchase.signature);

    const figures = [
      `traffic: ${seconds(trafficEnd - trafficStart)}, ${BUYERS} buyers, ${PAUSE_MS} ms pause between purchases; ${REPLICAS} replicas`,
      `HTTP requests: ${ledger.requests} (challenges, paid requests and re-sends)`,
      `purchases: ${ledger.purchases.length} (${paid.length} paid; ${unpaidFailures.length} challenges not answered with a 402)`,
      `PDFs delivered: ${successes.length} at once + ${collected.length} collected by re-sending the same signature = ${successes.length + collected.length}`,
      `paid requests without a PDF at first: ${failedFirst.length} (${
        Object.entries(statuses)
          .map(([status, count]) => `${count}× ${status}`)
          .join(', ') || 'none'
      })`,
      `on-chain transfers to payTo: ${transferTxs.size} (AuthorizationUsed: ${logs.used.length})`,
      `double settlements: ${doubles}`,
      `payments taken without a PDF delivered or collectable: ${takenWithoutPdf.length}`,
      `PDFs delivered without a settlement: ${pdfWithoutPayment.length}; receipts naming another transaction: ${receiptMismatch.length}; receipts naming none: ${receiptWithoutTransaction.length}`,
      `paid requests never charged and without a PDF (a clean failure: the client may pay again): ${unanswered.length - takenWithoutPdf.filter((nonce) => unanswered.includes(ours.get(nonce))).length}`,
      `longest gap in service (no PDF delivered): ${seconds(gap.ms)}, from ${seconds(gap.from - trafficStart)} into the traffic; events at ${events.map((event) => `${seconds(event.at - trafficStart)} ${event.what.split(/ to | \(|;/)[0]}`).join(', ')}`,
    ];
    figures.push(
      `replica resources (docker stats, per container): idle ${idleFigures.meanMemoryMiB} MiB, CPU ${idleFigures.meanCpuPercent} %; under this load peak ${loadFigures.peakMemoryMiB} MiB (mean ${loadFigures.meanMemoryMiB} MiB), CPU peak ${loadFigures.peakCpuPercent} % of a core (mean ${loadFigures.meanCpuPercent} %), ${loadFigures.samples} samples`,
    );
    say(`figures:\n${figures.map((line) => `  ${line}`).join('\n')}`);
    check(doubles === 0, `${doubles} authorizations settled twice`);
    check(
      foreign.length === 0 && transfersWithoutAuthorization.length === 0,
      `settlements that no purchase of this run made: ${foreign.length + transfersWithoutAuthorization.length}`,
    );
    check(
      takenWithoutPdf.length === 0,
      `payments taken without a PDF delivered or collectable: ${takenWithoutPdf.map((nonce) => `${nonce} (${JSON.stringify((ours.get(nonce).final ?? ours.get(nonce).answer).status)})`).join(', ')}`,
    );
    check(
      pdfWithoutPayment.length === 0 && receiptMismatch.length === 0,
      `PDFs without their settlement: ${pdfWithoutPayment.length}, receipts naming another transaction: ${receiptMismatch.length}`,
    );
    check(
      successes.some((at) => at > events.at(-1).at),
      'no PDF was delivered after the rolling step',
    );
    check(successes.length >= 10, `only ${successes.length} PDFs delivered`);
    passed = true;
  } finally {
    if (!passed) {
      const logs = await run(
        compose[0],
        [
          ...compose.slice(1),
          '-p',
          PROJECT,
          '-f',
          join(root, 'docker-compose.yml'),
          'logs',
          '--no-color',
          '--tail',
          '15',
        ],
        { env },
      );
      say(`last log lines of the stack:\n${logs.stdout}${logs.stderr}`);
    }
    const torndown = await s.down();
    say(
      `down -v: ${torndown ? 'no container of the project left' : 'FAILED: containers of the project are left'}; images kept`,
    );
    rmSync(work, { recursive: true, force: true });
  }
  say('passed');
}

main().catch((error) => {
  rmSync(work, { recursive: true, force: true });
  say(
    `FAILED: ${error instanceof Failure ? error.message : `${error?.stack ?? String(error)}${error?.cause ? `\ncause: ${error.cause.stack ?? error.cause}` : ''}`}`,
  );
  process.exit(1);
});
