import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What the renderer reports for the pool gauges. */
export interface RendererGauges {
  browserConnected: boolean;
  pagesInUse: number;
  poolSize: number;
  queued: number;
  restarts: number;
}

/**
 * Prometheus metrics (GET /metrics). One registry per app so that tests building several apps in
 * one process don't collide.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route, method and status.',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route.',
    labelNames: ['route', 'method'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const renderSeconds = new Histogram({
    name: 'render_duration_seconds',
    help: 'Time to render one PDF.',
    buckets: [0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8],
    registers: [registry],
  });
  const renderPages = new Histogram({
    name: 'render_pages',
    help: 'Pages per rendered PDF.',
    buckets: [1, 2, 3, 5, 8, 13, 21],
    registers: [registry],
  });
  const payments = new Counter({
    name: 'payments_total',
    help: 'Payment outcomes: challenged, verified, invalid, settled, settle_failed, settle_unknown, replayed, collected, abandoned.',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const facilitator = new Histogram({
    name: 'facilitator_call_duration_seconds',
    help: 'Facilitator call latency by operation and outcome.',
    labelNames: ['operation', 'outcome'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  let gauges: () => RendererGauges | undefined = () => undefined;
  const gauge = (name: string, help: string, read: (stats: RendererGauges) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const stats = gauges();
        if (stats) this.set(read(stats));
      },
    });
  gauge('render_pool_size', 'Warm browser pages in the pool.', (stats) => stats.poolSize);
  gauge('render_pool_in_use', 'Pages rendering right now.', (stats) => stats.pagesInUse);
  gauge('render_queue_depth', 'Renders waiting for a page.', (stats) => stats.queued);
  gauge('render_browser_connected', '1 when the browser is connected.', (stats) => (stats.browserConnected ? 1 : 0));
  gauge('render_browser_restarts', 'Browser restarts since start.', (stats) => stats.restarts);

  return {
    registry,
    observeRequest(route: string, method: string, status: number, seconds: number) {
      requests.inc({ route, method, status: String(status) });
      latency.observe({ route, method }, seconds);
    },
    observeRender(seconds: number, pages: number) {
      renderSeconds.observe(seconds);
      renderPages.observe(pages);
    },
    observePayment(outcome: string) {
      payments.inc({ outcome });
    },
    observeFacilitator(operation: string, seconds: number, outcome: string) {
      facilitator.observe({ operation, outcome }, seconds);
    },
    watchRenderer(read: () => RendererGauges) {
      gauges = read;
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
