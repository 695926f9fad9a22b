import type { Middleware } from 'koa';

/**
 * The service's icon: discovery listings (x402scan, @agentcash/discovery) look for /favicon.ico,
 * .png or .svg at the origin. A fixed SVG from memory, outside the route table: it is not an
 * operation and no API document needs to list it.
 */
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="6" y="3" width="20" height="26" rx="2" fill="#0f4c5c"/><path d="M10 10h12M10 15h12M10 20h8" stroke="#fff" stroke-width="2"/></svg>\n`;

export function favicon(): Middleware {
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path !== '/favicon.svg') return next();
    ctx.type = 'image/svg+xml';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = SVG;
  };
}
