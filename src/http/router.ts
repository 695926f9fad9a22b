import Router from '@koa/router';
import type { Middleware } from 'koa';
import { JsonText } from '../compute/computePool.js';
import { AppError, bodyIsAnArray } from '../errors.js';
import { writeAnswer } from './answer.js';
import { bodylessChallenge } from './bodylessChallenge.js';
import { jsonBody, jsonBodyText } from './jsonBody.js';
import { documentBody } from './documentBody.js';
import { isPaid, type PaymentGateFactory, type PricedRoute } from './routeSpec.js';

/**
 * Mounts the route table. For a POST: parse JSON → validate into ctx.state.input (400 with every
 * issue; a route that `parsesText` gets the body's text and does both itself, off the event loop,
 * offloadedRoutes.ts) → the handler's answer, written at once for a free route, through the payment gate for a
 * priced one. Validation runs before anything about payment, so an invalid body is never charged
 * and never reaches a facilitator. An unpaid POST without a body to a priced route is a price
 * probe: it gets the 402 challenge (bodylessChallenge.ts).
 */
export function buildRouter(routes: readonly PricedRoute[], options: { bodyLimitBytes: number; paymentGate?: PaymentGateFactory | undefined }) {
  const router = new Router();
  for (const route of routes) {
    const chain: Middleware[] = [];
    const gate = isPaid(route) && options.paymentGate ? options.paymentGate(route) : undefined;
    if (gate && route.request) chain.push(bodylessChallenge(gate));
    if (route.request) {
      const { parse } = route.request;
      if (route.request.bytes) {
        const { bytes } = route.request;
        chain.push(documentBody(bytes.mediaTypes, bytes.limitBytes), async (ctx, next) => {
          const query = Object.fromEntries(Object.entries(ctx.query).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value]));
          ctx.state.input = await bytes.parseBytes(ctx.state.bodyBytes as Buffer, ctx.state.bodyMediaType as string, query);
          await next();
        });
      } else if (route.request.parsesText) {
        chain.push(jsonBodyText(options.bodyLimitBytes), async (ctx, next) => {
          ctx.state.input = parse(new JsonText(ctx.state.bodyText as string));
          await next();
        });
      } else {
        chain.push(jsonBody(options.bodyLimitBytes), async (ctx, next) => {
          const body: unknown = ctx.request.body;
          if (Array.isArray(body)) throw bodyIsAnArray();
          ctx.state.input = parse(body);
          await next();
        });
      }
    }
    if (!isPaid(route)) {
      chain.push(async (ctx) => writeAnswer(ctx, await route.handle(ctx.state.input, { signal: NEVER_ABORTED })));
    } else if (gate) {
      chain.push((ctx) => gate(ctx, (signal) => route.handle(ctx.state.input, { signal })));
    } else {
      chain.push(paymentUnavailable);
    }
    router.register(route.path, [route.method], chain, { name: route.operationId });
  }
  return router;
}

const NEVER_ABORTED = new AbortController().signal;

// A priced route on an app built without payments (some tests) must never hand out free work.
const paymentUnavailable: Middleware = async () => {
  throw new AppError('payment_unavailable', 'Payments are not configured on this instance, so this paid operation is unavailable.');
};

/**
 * What happens when no route answered: 405 (with Allow) when the path exists under another
 * method, 501 for methods the router doesn't know, otherwise 404, all with the standard body.
 */
export function fallbacks(router: Router): Middleware {
  const allowed = router.allowedMethods() as Middleware;
  return async (ctx) => {
    await allowed(ctx, async () => {});
    if (ctx.status === 405) {
      // allowedMethods() has set the Allow header on this answer already.
      throw new AppError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}; allowed: ${ctx.response.get('Allow')}.`);
    }
    if (ctx.status === 501) throw new AppError('not_implemented', `The HTTP method ${ctx.method} is not supported.`);
    if (ctx.method === 'OPTIONS' && ctx.status === 200) return; // plain OPTIONS: Allow is set
    throw new AppError('not_found', `No route for ${ctx.method} ${ctx.path}. See /openapi.json.`);
  };
}
