/**
 * Runs the latest of a stream of requests: `schedule` waits for a pause of `delayMs` (typing), then
 * starts `run`; a newer schedule or `now` aborts a run still in flight, so an older answer never
 * replaces a newer one and a slow preview never queues behind another.
 */
export interface Latest {
  /** Runs after `delayMs` without a further call (a pause in typing). */
  schedule(): void;
  /** Runs at once (a picker changed, a retry). */
  now(): void;
  /** Stops what is waiting or running. */
  cancel(): void;
}

export interface LatestTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export function latest(
  run: (signal: AbortSignal) => Promise<void>,
  options: { delayMs: number; timers?: LatestTimers; onError?: (error: unknown) => void },
): Latest {
  const timers: LatestTimers = options.timers ?? {
    setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
  let timer: unknown;
  let inFlight: AbortController | undefined;

  const cancel = () => {
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
    inFlight?.abort();
    inFlight = undefined;
  };
  const start = () => {
    cancel();
    const controller = new AbortController();
    inFlight = controller;
    run(controller.signal)
      .catch((error: unknown) => {
        // A superseded run's failure is its abort: nobody waits for it any more.
        if (!controller.signal.aborted) options.onError?.(error);
      })
      .finally(() => {
        if (inFlight === controller) inFlight = undefined;
      });
  };
  return {
    schedule() {
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = timers.setTimeout(() => {
        timer = undefined;
        start();
      }, options.delayMs);
    },
    now: start,
    cancel,
  };
}
