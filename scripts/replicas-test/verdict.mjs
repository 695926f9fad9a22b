// The verdict of `npm run test:replicas`: what the buyers got set against what the chain settled.
// Prints the figures, then fails on a double settlement, a payment taken without its PDF, a PDF
// without its settlement, or no service after the failures.
import { check, seconds } from '../docker/checks.mjs';
import { isPdf } from './buyers.mjs';
import { BUYERS, PAUSE_MS, REPLICAS } from './settings.mjs';

/** The settlements on the chain, by the authorization's nonce: the transactions that used it. */
function settlementsByNonce(logs) {
  const settlements = new Map();
  for (const log of logs.used) {
    const nonce = log.topics[2].toLowerCase();
    settlements.set(nonce, [...(settlements.get(nonce) ?? []), log.transactionHash]);
  }
  return settlements;
}

/** The longest time without a PDF delivered at once, from the traffic's start to its end. */
function longestGap(successes, trafficStart, trafficEnd) {
  let gap = { ms: 0, from: trafficStart };
  const marks = [...successes, trafficEnd];
  for (let i = 1; i < marks.length; i++)
    if (marks[i] - marks[i - 1] > gap.ms) gap = { ms: marks[i] - marks[i - 1], from: marks[i - 1] };
  return gap;
}

/**
 * `run`: the ledger (requests, purchases), the purchases re-sent (`collected`, `unanswered`), the
 * chain's logs, the failures' events, the traffic's start and end, and the resource samples.
 */
export function judge(run, say) {
  const { ledger, collected, unanswered, logs, events, trafficStart, trafficEnd, idle, load } = run;
  const paid = ledger.purchases.filter((purchase) => purchase.signature);
  const settlements = settlementsByNonce(logs);
  const ours = new Map(paid.map((purchase) => [purchase.nonce, purchase]));
  const doubles = [...settlements.values()].filter((txs) => txs.length > 1).length;
  const foreign = [...settlements.keys()].filter((nonce) => !ours.has(nonce));
  const delivered = (purchase) => isPdf(purchase.final ?? purchase.answer);
  const takenWithoutPdf = [...settlements.keys()].filter((nonce) => ours.has(nonce) && !delivered(ours.get(nonce)));
  const pdfWithoutPayment = paid.filter((purchase) => delivered(purchase) && !settlements.has(purchase.nonce));
  // A PDF collected after its settler died may name no transaction (the re-settle only heard
  // "already used"): counted apart; a receipt naming a transaction must name the right one.
  const receiptOf = (purchase) => (purchase.final ?? purchase.answer).receipt;
  const receiptMismatch = paid.filter(
    (purchase) =>
      delivered(purchase) &&
      receiptOf(purchase)?.transaction &&
      !settlements.get(purchase.nonce)?.includes(receiptOf(purchase).transaction),
  );
  const receiptWithoutTransaction = paid.filter((purchase) => delivered(purchase) && !receiptOf(purchase)?.transaction);
  const transferTxs = new Set(logs.transfers.map((log) => log.transactionHash));
  const usedTxs = new Set(logs.used.map((log) => log.transactionHash));
  const transfersWithoutAuthorization = [...transferTxs].filter((tx) => !usedTxs.has(tx));

  // Service: PDFs delivered at once, from the first on (the first purchase of each buyer includes
  // its own start-up).
  const successes = paid
    .filter((purchase) => isPdf(purchase.answer))
    .map((purchase) => purchase.ended)
    .sort((a, b) => a - b);
  const gap = longestGap(successes, trafficStart, trafficEnd);
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
    `replica resources (docker stats, per container): idle ${idle.meanMemoryMiB} MiB, CPU ${idle.meanCpuPercent} %; under this load peak ${load.peakMemoryMiB} MiB (mean ${load.meanMemoryMiB} MiB), CPU peak ${load.peakCpuPercent} % of a core (mean ${load.meanCpuPercent} %), ${load.samples} samples`,
  ];
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
}
