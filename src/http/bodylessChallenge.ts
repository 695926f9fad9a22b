import type { Middleware } from 'koa';
import type { PaymentGate } from './routeSpec.js';

/**
 * Crawlers (x402scan, the CDP bazaar) probe a paid route with a bare POST: no body, no
 * Content-Type. Such a request can only be asking what the route costs, so it gets the 402
 * challenge instead of a 415/400. Only without PAYMENT-SIGNATURE: a paid request must carry a
 * valid body, and one without is refused (415/400) before anything about payment, never charged.
 * An empty body is one without bytes: no Transfer-Encoding and no (or a zero) Content-Length.
 */
export function bodylessChallenge(gate: PaymentGate): Middleware {
  return async (ctx, next) => {
    const empty = ctx.get('Transfer-Encoding') === '' && (ctx.get('Content-Length') === '' || ctx.get('Content-Length') === '0');
    if (!empty || ctx.get('PAYMENT-SIGNATURE') !== '') return next();
    // Without a signature the gate answers the challenge and never starts the work.
    await gate(ctx, () => {
      throw new Error('the work of a request without a body never runs');
    });
  };
}
