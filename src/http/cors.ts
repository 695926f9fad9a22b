import type { Middleware } from 'koa';

/**
 * Browsers may call the API from any origin (there are no cookies or credentials to protect).
 * x402 clients must be able to read PAYMENT-REQUIRED / PAYMENT-RESPONSE and send
 * PAYMENT-SIGNATURE (and SIGN-IN-WITH-X, for a re-download); @x402/fetch also sends Access-Control-Expose-Headers on its requests. PUT is
 * for /v1/themes.
 */
export function cors(): Middleware {
  return async (ctx, next) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set(
      'Access-Control-Expose-Headers',
      'PAYMENT-REQUIRED, PAYMENT-RESPONSE, Content-Digest, X-Request-Id, Retry-After',
    );
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
      ctx.set('Access-Control-Allow-Methods', 'GET, HEAD, POST, PUT, OPTIONS');
      ctx.set(
        'Access-Control-Allow-Headers',
        'Content-Type, PAYMENT-SIGNATURE, SIGN-IN-WITH-X, Access-Control-Expose-Headers',
      );
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    await next();
  };
}
