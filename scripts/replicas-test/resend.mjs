// After the failures, `npm run test:replicas` does what a client should for every paid request
// that got no PDF: send the same PAYMENT-SIGNATURE again until it gets the PDF or a definite answer.
import { seconds, sleep } from '../docker/checks.mjs';
import { isPdf, reason } from './buyers.mjs';
import { MAX_TIMEOUT_SECONDS } from './settings.mjs';

/**
 * Re-sends each of `missing` (every 2 s, until its authorization can have expired) through
 * `buyer`; sets each purchase's `final` answer and says what it met. Answers which purchases got
 * their PDF that way (`collected`) and which ended without (`unanswered`).
 */
export async function resendUntilDefinite(missing, buyer, say) {
  const collected = [];
  const unanswered = [];
  await Promise.all(
    missing.map(async (purchase) => {
      const deadline = Date.now() + (MAX_TIMEOUT_SECONDS + 30) * 1000;
      let answer = purchase.answer;
      const seen = [answer.status || answer.error];
      while (!isPdf(answer) && Date.now() < deadline) {
        await sleep(2_000);
        answer = await buyer.resend(purchase.signature);
        seen.push(answer.status ? `${answer.status}${answer.status >= 400 ? ` ${reason(answer)}` : ''}` : answer.error);
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
  return { collected, unanswered };
}
