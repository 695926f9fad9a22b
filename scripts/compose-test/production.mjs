// Step 6 of `npm run test:compose`: the production file and the image refuse to start half set up.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { check } from '../docker/checks.mjs';
import { run } from '../docker/commands.mjs';
import { IMAGES } from './images.mjs';
import { DEV_ACCOUNT_0 } from './instances.mjs';

const PRODUCTION = {
  FACILITATOR_URL: 'https://facilitator.example',
  PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
  PUBLIC_BASE_URL: 'https://invoices.example',
};

/**
 * docker-compose.production.yml stops Compose with its message when any of its three variables is
 * missing and forces LOCAL_TEST_CHAIN off; the service image exits with 2 when PAY_TO is a public
 * test account and the facilitator a real one. Nothing is started but one container that exits.
 */
export async function productionRefusals(compose, work, say) {
  const [command, ...prefix] = compose;
  // An empty --env-file, so that a .env lying in the checkout cannot fill in what is missing.
  const emptyEnvFile = join(work, 'empty.env');
  writeFileSync(emptyEnvFile, '');
  const config = (env) =>
    run(command, [...prefix, '--env-file', emptyEnvFile, '-f', 'docker-compose.production.yml', 'config'], { env });
  const clean = Object.fromEntries(Object.keys(PRODUCTION).map((name) => [name, '']));
  for (const name of Object.keys(PRODUCTION)) {
    const result = await config({ ...clean, ...PRODUCTION, [name]: '' });
    // Compose 1.29 prints the service's whole environment block before the message; v2 only the message.
    const message = result.stderr.slice(result.stderr.lastIndexOf('}') + 1);
    check(
      result.status !== 0 && message.includes(`set ${name} to`),
      `production file without ${name}: exit ${result.status}, ${message.trim()}`,
    );
  }
  const complete = await config({ ...PRODUCTION, LOCAL_TEST_CHAIN: 'on' });
  check(
    complete.status === 0 && /LOCAL_TEST_CHAIN: ['"]?off/.test(complete.stdout),
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
      `FACILITATOR_URL=${PRODUCTION.FACILITATOR_URL}`,
      '-e',
      `PUBLIC_BASE_URL=${PRODUCTION.PUBLIC_BASE_URL}`,
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
}
