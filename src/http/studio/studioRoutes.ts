import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';
import type { Operation } from '../../operations/operation.js';
import { bundleStudio, readStudioBundle, type StudioFiles } from './studioBundle.js';
import { studioCsp, studioPage } from './studioPage.js';

/** Headers of the page and its files: this origin only, not framed, no referrer sent along. */
const PAGE_HEADERS = {
  'Content-Security-Policy': studioCsp(),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * GET /studio: the design studio, a page of the running service (in production too). It calls
 * the free template routes (/v1/templates/…) and PUT /v1/fonts from the browser, like any client.
 */
export function studioRoute(): Operation {
  return {
    method: 'GET',
    path: '/studio',
    operationId: 'studio',
    summary: 'Design studio (HTML)',
    description:
      'A page to fork a built-in design or load a stored one, edit its HTML, CSS and partials beside a watermarked preview of the reference invoices and the content contract report, upload brand fonts, and save the design to buy invoices with its id.',
    tag: 'Discovery',
    document: true,
    response: { contentType: 'text/html; charset=utf-8', description: 'HTML page.' },
    handle: () => {
      const nonce = randomBytes(18).toString('base64');
      return {
        contentType: 'text/html; charset=utf-8',
        body: studioPage(nonce),
        headers: { ...PAGE_HEADERS, 'Content-Security-Policy': studioCsp(nonce), 'Cache-Control': 'no-store' },
      };
    },
  };
}

// Under tsx (development, tests) this file is .ts: the browser code is bundled from its sources,
// in memory, on the first request. Built (dist/, the Docker image), it is .js and `npm run build`
// has written the bundle to dist/studio/ (scripts/build.mjs).
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const CLIENT_DIR = fileURLToPath(new URL('./client/', import.meta.url));
const BUILT_DIR = fileURLToPath(new URL('../../../studio/', import.meta.url));

/**
 * Serves the bundle's files under /studio/ (studio.js, studio.css, pdf.worker.js) from memory,
 * revalidated by ETag: a new build is picked up at once, an unchanged file costs a 304.
 */
export function studioFiles(load: () => Promise<StudioFiles> = defaultLoad()): Middleware {
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.path.startsWith('/studio/')) return next();
    const file = (await load()).get(ctx.path.slice('/studio/'.length));
    if (!file) return next();
    ctx.set(PAGE_HEADERS);
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('ETag', file.etag);
    ctx.vary('Accept-Encoding');
    ctx.type = file.type;
    ctx.status = 200; // ctx.fresh compares the ETag only for a 2xx answer
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      ctx.set('Content-Encoding', 'gzip');
      ctx.body = file.gzipped;
    } else {
      ctx.body = file.body;
    }
  };
}

/** Loaded once; a failed bundle is tried again on the next request rather than kept. */
function defaultLoad(): () => Promise<StudioFiles> {
  let files: Promise<StudioFiles> | undefined;
  return () => {
    files ??= (FROM_SOURCES ? bundleStudio(CLIENT_DIR) : readStudioBundle(BUILT_DIR)).catch((error: unknown) => {
      files = undefined;
      throw error;
    });
    return files;
  };
}
