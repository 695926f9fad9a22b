// Steps 2 to 4 of `npm run test:compose`: one instance behind the load balancer, paid through the
// published address with `npm run buy`; then two instances behind the same address.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, seconds, sleep } from '../docker/checks.mjs';
import { run } from '../docker/commands.mjs';
import { http, waitHealthy, waitReady } from '../docker/health.mjs';
import { startsAsPdf } from '../docker/payer.mjs';
import { payingClient } from './paidRequests.mjs';

// The local chain's dev account 0: what docker-compose.yml sets as PAY_TO.
export const DEV_ACCOUNT_0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

/**
 * `up -d` with one instance (figure: until /readyz answers, and the instance's start to healthy);
 * the 402 names the published address and dev account 0; `npm run buy` buys a PDF through it.
 * Answers the invoice (the schema's example) the later steps send.
 */
export async function oneInstance(project, work, { say, figure }) {
  const { base } = project;
  const started = Date.now();
  await project.dc(['up', '-d'], { timeoutMs: 300_000 });
  const [firstStart] = (await waitHealthy(project, 'app', 1)).values();
  await waitReady(base);
  figure(
    `up -d until /readyz answers 200 through the load balancer: ${seconds(Date.now() - started)}; app container start to healthy: ${seconds(firstStart)}${firstStart <= 5000 ? '' : ' (ABOVE the 5 s target)'}`,
  );

  const schema = await (await http(`${base}/v1/schema`)).json();
  const invoice = JSON.stringify(schema.example);
  writeFileSync(join(work, 'invoice.json'), invoice);
  const challenge = await http(`${base}/v1/invoice.pdf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: invoice,
  });
  check(challenge.status === 402, `unpaid PDF: expected 402, got ${challenge.status}`);
  const required = JSON.parse(Buffer.from(challenge.headers.get('payment-required') ?? '', 'base64').toString('utf8'));
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
  check(startsAsPdf(readFileSync(join(work, 'bought.pdf'))), 'npm run buy saved something that is not a PDF');
  say(`npm run buy (SERVICE_URL=${base}): ${bought.stdout.split('\n')[0]}`);
  return { schema, invoice };
}

/** Which of the containers `ids` logged the request id (the service logs every request's id). */
async function servedBy(ids, requestId) {
  const found = [];
  for (const id of ids) if ((await run('docker', ['logs', id])).stdout.includes(requestId)) found.push(id);
  return found;
}

/**
 * `up -d --scale app=2` (figure: the second instance's start to healthy, and the whole step); both
 * instances answer requests through the one address; a paid request (dev account 2) gets its PDF.
 * Answers that paid request (its signature, PDF and receipt).
 */
export async function twoInstances(project, invoice, { say, figure }) {
  const { base } = project;
  const started = Date.now();
  const before = new Set(await project.ids('app'));
  await project.dc(['up', '-d', '--scale', 'app=2'], { timeoutMs: 300_000 });
  const starts = await waitHealthy(project, 'app', 2, { known: before });
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
    for (const id of await servedBy(ids, requestId)) served.set(id, (served.get(id) ?? 0) + 1);
  }
  check(served.size === 2, `only ${served.size} of 2 instances served requests through ${base}`);
  say(`both instances answer through ${base} (load balancer: HAProxy, instances found through Docker's DNS)`);
  const paid = await (await payingClient(2))(`${base}/v1/invoice.pdf`, invoice);
  check(
    paid.status === 200 && startsAsPdf(paid.pdf) && paid.receipt?.success === true,
    `paid request with two instances: ${paid.status} ${JSON.stringify(paid.receipt)}`,
  );
  say(
    `paid through the load balancer with two instances: 200, ${paid.pdf.length} bytes, transaction ${paid.receipt.transaction}`,
  );
  return paid;
}
