/**
 * What the format benches (ksef.ts, fatturapa.ts, inbound.ts, pint.ts) share: the service started
 * on 127.0.0.1 with the routes they call priced 0 (the work without a payment round trip), a timed
 * POST, works timed in alternation (drift hits each alike), and render.pdf of a document against
 * /v1/invoice.pdf of the same invoice as JSON. BENCH_SCALE scales the sample counts.
 */
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createHttpServer } from '../src/http/httpServer.js';
import { createLogger } from '../src/logger.js';
import { createRenderer } from '../src/render/renderer.js';
import { designReferences } from '../src/settings.js';
import { percentile } from './measure.js';
import { scaled } from './scale.js';

/** "p50 / p95" in ms. */
export const fmt = (samples: number[], digits = 2) =>
  `${percentile(samples, 50).toFixed(digits)} / ${percentile(samples, 95).toFixed(digits)}`;

/** Each work run `n` times after 10 warm-up rounds (scaled), in alternation; the samples per work (ms). */
export async function timeAlternated<K extends string>(
  works: Record<K, () => unknown>,
  n: number,
): Promise<Record<K, number[]>> {
  const entries = Object.entries(works) as [K, () => unknown][];
  const samples = Object.fromEntries(entries.map(([name]) => [name, [] as number[]])) as Record<K, number[]>;
  const warmUp = scaled(10);
  for (let at = 0; at < n + warmUp; at++) {
    for (const [name, work] of entries) {
      const started = performance.now();
      await work();
      if (at >= warmUp) samples[name].push(performance.now() - started);
    }
  }
  return samples;
}

export interface BenchServer {
  /** http://127.0.0.1:<port>, for calls other than a POST. */
  baseUrl: string;
  /** The wall time of one POST (ms); anything but 200 throws. */
  post(path: string, type: string, body: string | Buffer): Promise<number>;
  /** render.pdf of `xml` against /v1/invoice.pdf of `json`: scaled(3) warm-up pairs, then scaled(60) pairs in alternated order. */
  renderPair(json: string, xml: string | Buffer): Promise<{ json: number[]; document: number[] }>;
  close(): Promise<void>;
  /** The print-time checks of customer designs so far, by kind, and why the full ones ran (src/render/designCheck.ts). */
  designChecks: { text: number; full: number; why: Map<string, number> };
}

/** The service with a 2-page renderer and one compute thread; `prices` sets the routes called to 0 (PRICES syntax). */
export async function startBenchServer(prices: string): Promise<BenchServer> {
  const designChecks = { text: 0, full: 0, why: new Map<string, number>() };
  const renderer = await createRenderer({
    poolSize: 2,
    designReferences,
    log: (event) => {
      const { event: name, check, why } = event as { event?: string; check?: 'text' | 'full'; why?: string };
      if (name !== 'design_check' || !check) return;
      designChecks[check]++;
      if (why) designChecks.why.set(why, (designChecks.why.get(why) ?? 0) + 1);
    },
  });
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    NODE_ENV: 'production',
    PORT: '0',
    COMPUTE_THREADS: '1',
    PRICES: prices,
  });
  const { app, close } = createApp({ config, logger: createLogger('silent'), renderer });
  const server = createHttpServer(app.callback()).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const post = async (path: string, type: string, body: string | Buffer) => {
    const started = performance.now();
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': type },
      body: body as BodyInit,
      signal: AbortSignal.timeout(60_000),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${bytes.toString('utf8').slice(0, 300)}`);
    return performance.now() - started;
  };

  const renderPair = async (json: string, xml: string | Buffer) => {
    const samples = { json: [] as number[], document: [] as number[] };
    const run = (which: 'json' | 'document') =>
      which === 'json'
        ? post('/v1/invoice.pdf', 'application/json', json)
        : post('/v1/e-invoice/render.pdf', 'application/xml', xml);
    for (let at = 0; at < scaled(3); at++) {
      await run('json');
      await run('document');
    }
    // 60 pairs: with 20 the ratio swung between 1.12× and 1.24× from run to run (the 200-line p50s
    // move by a few ms with which pooled page a render lands on).
    for (let at = 0; at < scaled(60); at++) {
      const order = at % 2 === 0 ? (['json', 'document'] as const) : (['document', 'json'] as const);
      for (const which of order) samples[which].push(await run(which));
    }
    return samples;
  };

  return {
    baseUrl: base,
    post,
    renderPair,
    designChecks,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      close();
      await renderer.close();
    },
  };
}
