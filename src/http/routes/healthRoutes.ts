import type { Registry } from 'prom-client';
import type { Operation } from '../../operations/operation.js';

export interface Readiness {
  ready: boolean;
  checks: Record<string, boolean>;
}

/** Liveness, readiness and metrics: never paid, never rate-limited, not in the sitemap. */
export function healthRoutes(options: { readiness?: () => Promise<Readiness>; registry?: Registry }): Operation[] {
  const routes: Operation[] = [
    {
      method: 'GET',
      path: '/healthz',
      operationId: 'healthz',
      summary: 'Liveness: the process is up',
      description: 'Answers 200 {"status":"ok"} while the process runs.',
      tag: 'Operations',
      response: { contentType: 'application/json', description: 'Alive.' },
      handle: () => ({ body: { status: 'ok' } }),
    },
  ];
  const { readiness, registry } = options;
  if (readiness) {
    routes.push({
      method: 'GET',
      path: '/readyz',
      operationId: 'readyz',
      summary: 'Readiness: can take paid work now',
      description:
        'Answers 200 when the browser is connected, the render queue is not full, the service is not draining and the payment facilitator answered recently; otherwise 503. The body names each check.',
      tag: 'Operations',
      response: { contentType: 'application/json', description: 'Ready, with the result of each check.' },
      async handle() {
        const result = await readiness();
        return {
          status: result.ready ? 200 : 503,
          headers: { 'Cache-Control': 'no-store' },
          body: { status: result.ready ? 'ready' : 'not_ready', checks: result.checks },
        };
      },
    });
  }
  if (registry) {
    routes.push({
      method: 'GET',
      path: '/metrics',
      operationId: 'metrics',
      summary: 'Prometheus metrics',
      description:
        'Requests, latency, renders, pool and queue, browser restarts, payments by outcome and facilitator latency, in the Prometheus text format.',
      tag: 'Operations',
      response: { contentType: 'text/plain; version=0.0.4', description: 'Prometheus text exposition.' },
      handle: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
    });
  }
  return routes;
}
