/**
 * "Was the facilitator reachable recently?" for readiness: any successful verify/settle counts;
 * otherwise GET /supported is asked at most once per `intervalMs`, with a timeout.
 */
export function createFacilitatorProbe(options: {
  url: string;
  timeoutMs: number;
  intervalMs?: number;
  authHeaders?: () => Record<string, string>;
}) {
  const intervalMs = options.intervalMs ?? 15_000;
  let lastOk = 0;
  let lastProbe = 0;
  let lastResult = false;
  let probing: Promise<boolean> | undefined;

  async function probe(): Promise<boolean> {
    try {
      const response = await fetch(`${options.url.replace(/\/+$/, '')}/supported`, {
        headers: options.authHeaders?.() ?? {},
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      await response.body?.cancel();
      return response.ok;
    } catch {
      return false;
    }
  }

  return {
    markReachable() {
      lastOk = Date.now();
    },
    async reachable(): Promise<boolean> {
      const now = Date.now();
      if (now - lastOk < intervalMs) return true;
      if (now - lastProbe < intervalMs) return lastResult;
      probing ??= probe().then((ok) => {
        lastProbe = Date.now();
        lastResult = ok;
        if (ok) lastOk = lastProbe;
        probing = undefined;
        return ok;
      });
      return probing;
    },
  };
}

export type FacilitatorProbe = ReturnType<typeof createFacilitatorProbe>;
