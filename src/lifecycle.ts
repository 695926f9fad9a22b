/**
 * Process lifecycle shared by readiness, the paid call and shutdown. On a stop signal the
 * service drains: readiness turns 503 at once, requests in flight may finish; once the deadline
 * passes, a request that has not started settling is abandoned before settlement (never in the
 * middle of it), and shutdown waits for settlements already under way, answers included.
 */
export interface Lifecycle {
  readonly draining: boolean;
  /** False once the shutdown deadline has passed: do not start a settlement. */
  settlementAllowed(): boolean;
  /**
   * Marks a settlement in progress until the returned function is called: from the settle call
   * until its answer (the PDF, or why there is none) has been written to the client.
   */
  beginSettlement(): () => void;
  drain(): void;
  passDeadline(): void;
  /** Resolves when no settlement is in progress (or after `timeoutMs`). */
  settlementsDone(timeoutMs: number): Promise<void>;
}

export function createLifecycle(): Lifecycle {
  let draining = false;
  let deadlinePassed = false;
  let settling = 0;
  const waiters: (() => void)[] = [];
  return {
    get draining() {
      return draining;
    },
    settlementAllowed: () => !deadlinePassed,
    beginSettlement() {
      settling += 1;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        settling -= 1;
        if (settling === 0) for (const resolve of waiters.splice(0)) resolve();
      };
    },
    drain() {
      draining = true;
    },
    passDeadline() {
      deadlinePassed = true;
    },
    settlementsDone(timeoutMs) {
      if (settling === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        timer.unref();
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
