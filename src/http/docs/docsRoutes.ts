import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Middleware } from 'koa';
import { isPaid, type PricedOperation, type Operation } from '../../operations/operation.js';

/**
 * GET /docs: the OpenAPI document rendered by Swagger UI, served from the swagger-ui-dist npm
 * package (no CDN, works offline). Only the files named here are served, from memory.
 */
const distDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const ASSETS: Record<string, { file: string; type: string }> = {
  '/docs/swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  '/docs/swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
};

// External script (not inline) so that a strict Content-Security-Policy can forbid inline code.
const INIT_JS = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, defaultModelsExpandDepth: 0, docExpansion: 'list' });\n`;

const page = (prices: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Invoice PDF API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<style>body{margin:0} .topbar{display:none} .banner{font:14px/1.5 system-ui,sans-serif;padding:12px 20px;background:#0f4c5c;color:#fff}.banner a{color:#fff}</style>
</head>
<body>
<div class="banner">Invoice PDF API — ${prices}paid in USDC over x402 v2 (no account, no API key). Machine-readable: <a href="/openapi.json">openapi.json</a> · <a href="/llms.txt">llms.txt</a> · <a href="/.well-known/x402">x402 manifest</a></div>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

/** The banner names each paid operation with its configured price (from the route table, read once). */
export function docsRoute(table: () => readonly PricedOperation[]): Operation {
  let html: string | undefined;
  const build = () => {
    const paid = table().filter(isPaid);
    const prices = paid
      .map((route) => `<code>${route.method} ${route.path}</code> costs ${route.priceUsd} USD per call, `)
      .join('');
    return page(prices);
  };
  return {
    method: 'GET',
    path: '/docs',
    operationId: 'docs',
    summary: 'API reference (HTML)',
    description: 'The OpenAPI document rendered as a readable reference, with the x402 price of paid operations.',
    tag: 'Discovery',
    document: true,
    response: { contentType: 'text/html; charset=utf-8', description: 'HTML page.' },
    handle: () => ({ contentType: 'text/html; charset=utf-8', body: (html ??= build()) }),
  };
}

/** Serves the Swagger UI files; read once, on first use. */
export function docsAssets(): Middleware {
  const cache = new Map<string, Buffer>();
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/docs/init.js') {
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = INIT_JS;
      return;
    }
    const asset = ASSETS[ctx.path];
    if (!asset) return next();
    let body = cache.get(ctx.path);
    if (!body) {
      body = readFileSync(join(distDir, asset.file));
      cache.set(ctx.path, body);
    }
    ctx.type = asset.type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = body;
  };
}
