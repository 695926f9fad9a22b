// One process of the bench tier (test/bench/benches.test.ts) that runs benches one after another:
// it reads a job a line from stdin ({ file, env }: a bench's bundle and its environment), runs the
// bench by importing it (a bench is a script whose top-level await ends when it has printed its
// rows), and writes END_MARK and the outcome as one JSON line on stdout and on stderr once the
// bench has ended and left nothing that would keep its process alive. Why one process for several
// benches: each bench run alone paid Node's start and the loading of the bundle's shared chunks
// (the app, viem, puppeteer, ...) again, 1.5-2.5 s of CPU a bench (see the test file).
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

export const END_MARK = '@@bench-runner-end';
/** How long what a bench started may take to close after its script ended (wall only). */
const SETTLE_MS = 30_000;

/** How many resources of each type keep the event loop alive now. */
function resources() {
  const counts = new Map();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

/** The resource types that outnumber `before` (what the bench left open). */
function leftOver(before) {
  return [...resources()].filter(([type, count]) => count > (before.get(type) ?? 0)).map(([type]) => type);
}

/**
 * Waits until the bench left nothing open that would keep a process alive (a bench run alone
 * would never exit: `npm run bench` would hang there), SETTLE_MS at most: a server or browser
 * closing takes a moment after its close() resolved.
 */
async function settle(before) {
  const until = performance.now() + SETTLE_MS;
  let left = leftOver(before);
  while (left.length > 0 && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = leftOver(before);
  }
  return left;
}

function report(outcome) {
  const line = `\n${END_MARK} ${JSON.stringify(outcome)}\n`;
  process.stdout.write(line);
  process.stderr.write(line);
}

// Node opens its stdout and stderr handles when first used: opened now, they are no bench's leftovers.
for (const stream of [process.stdout, process.stderr]) stream.write('');

let current;
// An error no await caught (a late rejection, a throw in a callback): the bench running fails, and
// this process ends, as a bench's own process would have.
for (const event of ['uncaughtException', 'unhandledRejection'])
  process.on(event, (error) => {
    console.error(error);
    report({ file: current, ok: false, error: `${event}: ${error?.stack ?? error}` });
    process.exit(1);
  });

for await (const line of createInterface({ input: process.stdin })) {
  const { file, env } = JSON.parse(line);
  current = file;
  Object.assign(process.env, env);
  // As when it runs alone: a bench that reads its arguments (national.ts, pint.ts, templates.ts) gets none.
  process.argv = [process.execPath, file];
  const before = resources();
  try {
    await import(pathToFileURL(file).href);
  } catch (error) {
    console.error(error);
    report({ file, ok: false, error: String(error?.stack ?? error) });
    continue;
  }
  const left = await settle(before);
  report(
    left.length > 0
      ? { file, ok: false, error: `the bench ended but left open what keeps a process alive: ${left.join(', ')}` }
      : { file, ok: true },
  );
}
