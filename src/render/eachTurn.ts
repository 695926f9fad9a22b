/**
 * Runs `step` on each item, one per turn of the event loop (setImmediate, unref'd: it keeps no
 * process alive), then `done` with the results; a step (or `done`) that throws ends it with `failed`. For work
 * of 10-100 ms in all that would otherwise stall every request at once (the reference invoices:
 * reliability 11, docs/reliability.md). `stop` is asked before each step: true ends it silently.
 */
export function eachTurn<T, R>(
  items: readonly T[],
  step: (item: T) => R,
  done: (results: R[]) => void,
  { failed = () => undefined, stop = () => false }: { failed?: () => void; stop?: () => boolean } = {},
): void {
  const results: R[] = [];
  const next = () => {
    if (stop()) return;
    try {
      if (results.length === items.length) return done(results);
      results.push(step(items[results.length]!));
    } catch {
      return failed();
    }
    setImmediate(next).unref();
  };
  setImmediate(next).unref();
}
