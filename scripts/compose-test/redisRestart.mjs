// Step 5 of `npm run test:compose`: Redis restarts and nothing is lost.
import { check, sleep } from '../docker/checks.mjs';
import { waitHealthy } from '../docker/health.mjs';
import { payingClient, send } from './paidRequests.mjs';

/**
 * Sends `request` until its answer is not a 503 (at most 20 s). Each instance reconnects to Redis
 * on its own, in its own time; until it has, a paid request it serves is a 503 (never charged),
 * which a client answers by sending the same request again. The load balancer may send the next
 * request to the instance that has not reconnected yet: every request after the restart waits so.
 */
async function untilReconnected(request) {
  let answer;
  for (let i = 0; i < 40; i++) {
    answer = await request();
    if (answer.status !== 503) break;
    await sleep(500);
  }
  return answer;
}

// The keys that outlive the restart: a rate-limit bucket lives until it refills (seconds) and
// Redis's own expiry takes it whether Redis restarts or not (a run here counted 5 keys before and 4
// after with DBSIZE). Counted: keys without an expiry or expiring later than `afterMs`.
const LASTING_KEYS = `local n = 0
for _, key in ipairs(redis.call('KEYS', '*')) do
  local ttl = redis.call('PTTL', key)
  if ttl == -1 or ttl > tonumber(ARGV[1]) then n = n + 1 end
end
return n`;
const LASTING_MS = 60_000;
const keyCount = async (project, afterMs) =>
  Number((await project.dc(['exec', '-T', 'redis', 'redis-cli', 'EVAL', LASTING_KEYS, '0', String(afterMs)])).trim());

/**
 * Restarts Redis after the paid requests; checks that it holds the same keys (those not about to
 * expire), that the paid request's signature sent again gets the same PDF and transaction, another
 * body under it 409, and a new payment (dev account 3) 200.
 */
export async function restartRedis(project, { schema, invoice }, paid, say) {
  const url = `${project.base}/v1/invoice.pdf`;
  const counted = Date.now();
  const keysBefore = await keyCount(project, LASTING_MS);
  check(keysBefore >= 2, `Redis holds ${keysBefore} keys after two paid requests`);
  await project.dc(['restart', 'redis'], { timeoutMs: 120_000 });
  await waitHealthy(project, 'redis', 1);
  // The same keys: those that expired meanwhile were not counted before.
  const keysAfter = await keyCount(project, LASTING_MS - (Date.now() - counted));
  check(keysAfter === keysBefore, `Redis had ${keysBefore} keys before the restart and ${keysAfter} after`);
  const again = await untilReconnected(() => send(url, invoice, paid.signature));
  check(
    again.status === 200 && again.pdf.equals(paid.pdf) && again.receipt?.transaction === paid.receipt.transaction,
    `re-send after the Redis restart: ${again.status}, same PDF ${again.pdf.equals(paid.pdf)}, receipt ${JSON.stringify(again.receipt)}`,
  );
  const otherBody = JSON.stringify({ ...schema.example, invoice_number: 'INV-OTHER-1' });
  const conflict = await untilReconnected(() => send(url, otherBody, paid.signature));
  check(conflict.status === 409, `same signature, other body after the restart: expected 409, got ${conflict.status}`);
  const paidOnce = await (await payingClient(3))(url, invoice);
  const fresh =
    paidOnce.status === 503 ? await untilReconnected(() => send(url, invoice, paidOnce.signature)) : paidOnce;
  check(fresh.status === 200, `a new payment after the Redis restart: ${fresh.status}`);
  say(
    `Redis restarted: ${keysBefore} keys before, ${keysAfter} after; the re-sent payment got the same PDF and transaction, another body under it 409, a new payment 200`,
  );
}
