/**
 * Settles with `work`, or rejects with onExpire() after `ms`. The loser's outcome is swallowed:
 * a late rejection of abandoned work must not become an unhandled rejection.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, onExpire: () => Error): Promise<T> {
  work.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onExpire()), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
