import type { RouteSpec } from '../routeSpec.js';

export function healthRoutes(): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/healthz',
      operationId: 'healthz',
      summary: 'Liveness: the process is up',
      description: 'Answers 200 {"status":"ok"} while the process runs. Never paid, never rate-limited.',
      tag: 'Operations',
      response: { contentType: 'application/json', description: 'Alive.' },
      handle(ctx) {
        ctx.body = { status: 'ok' };
      },
    },
  ];
}
