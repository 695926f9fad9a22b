import * as v from 'valibot';

/** GET /supported of an x402 facilitator: the (version, scheme, network) kinds it verifies and settles. */
const SupportedSchema = v.object({
  kinds: v.array(v.object({ x402Version: v.number(), scheme: v.string(), network: v.string() })),
});

export type FacilitatorSupport = { kind: 'supported' } | { kind: 'unchecked'; reason: string };

/**
 * The start-up check: the facilitator must list x402 v2 `exact` on our network, or every paid
 * request would be challenged and then refused. A facilitator that answers without it is a
 * configuration error (thrown, with what it does list); one that can't be asked now (down, no
 * /supported) is not: readiness reports it, and start-up goes on.
 */
export async function checkFacilitatorSupport(options: {
  url: string;
  network: string;
  timeoutMs: number;
  authHeaders?: Record<string, string>;
}): Promise<FacilitatorSupport> {
  const url = `${options.url.replace(/\/+$/, '')}/supported`;
  let body: unknown;
  try {
    const response = await fetch(url, {
      headers: options.authHeaders ?? {},
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return { kind: 'unchecked', reason: `GET ${url} answered ${response.status}` };
    }
    body = await response.json();
  } catch (error) {
    return { kind: 'unchecked', reason: `GET ${url} failed: ${(error as Error).message}` };
  }
  const parsed = v.safeParse(SupportedSchema, body);
  if (!parsed.success) return { kind: 'unchecked', reason: `GET ${url} answered an unexpected body` };
  const { kinds } = parsed.output;
  if (kinds.some((kind) => kind.x402Version === 2 && kind.scheme === 'exact' && kind.network === options.network))
    return { kind: 'supported' };
  const listed = kinds.map((kind) => `v${kind.x402Version} ${kind.scheme} ${kind.network}`).join(', ') || 'nothing';
  throw new Error(
    `the facilitator at ${options.url} does not support x402 v2 scheme exact on ${options.network} (its /supported lists: ${listed}). Set X402_NETWORK (and USDC_ASSET) to a network it supports, or FACILITATOR_URL to a facilitator that supports ${options.network}.`,
  );
}
