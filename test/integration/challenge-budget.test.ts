import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HEADER_BLOCK_BUDGET } from '../../src/http/challengeBudget.js';
import { CONFIGURATIONS, measureChallenges } from '../support/challengeSizes.js';

/**
 * Every paid operation's 402, in every configuration the service can start with, fits the 4 KB
 * page a default nginx proxy buffers an upstream header block in (the nginx e2e test sends it
 * through one); the start-up check agrees, and refuses a configuration that cannot fit.
 */
for (const configuration of CONFIGURATIONS) {
  test(`${configuration.name}: every paid 402's header block is at most ${HEADER_BLOCK_BUDGET} bytes`, async () => {
    const { measured, problems } = await measureChallenges(configuration);
    assert.ok(measured.length >= 6, `${measured.length} paid routes`);
    for (const { path, blockBytes } of measured)
      assert.ok(blockBytes <= HEADER_BLOCK_BUDGET, `${configuration.name}: ${path}: ${blockBytes} bytes`);
    assert.deepEqual(problems, []);
    console.log(
      `# ${configuration.name}: ${measured.map(({ path, blockBytes }) => `${path} ${blockBytes} B`).join(', ')}`,
    );
  });
}

test('a public base URL too long for the 402 to fit is refused at start-up, naming PUBLIC_BASE_URL', async () => {
  const base = CONFIGURATIONS[1]!;
  const { problems } = await measureChallenges({
    ...base,
    env: { ...base.env, PUBLIC_BASE_URL: `https://${'a'.repeat(1500)}.example` },
  }).catch((error: Error) => ({ problems: [error.message] }));
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(
    problems[0]!,
    /^PUBLIC_BASE_URL: the 402 of \/v1\/\S+ would carry a PAYMENT-REQUIRED header of \d+ bytes.*use a public base URL of at most \d+ characters \(this one has 1516\)/,
  );
});
