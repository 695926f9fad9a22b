import { readFile } from 'node:fs/promises';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { AppError, bodyIsAnArray, validationFailed } from '../../errors.js';
import { CURRENCY_CODES } from '../../invoice/currencies.js';
import { DESIGNS, STAMPS, type Theme } from '../../invoice/designFields.js';
import { resolveStoredLook } from '../../themes/storedThemes.js';
import type { FontStore } from '../../themes/fontStore.js';
import type { ThemeStore } from '../../themes/themeStore.js';
import { EXAMPLE_INVOICE } from '../../invoice/example.js';
import { EXAMPLE_REAL_WORLD_INVOICE } from '../../invoice/exampleRealWorld.js';
import { prepareInvoice, type PreparedInvoice } from '../../invoice/prepareInvoice.js';
import { buildTotalsReport } from '../../invoice/totalsReport.js';
import { PAPER_SETTINGS, paperOf, type PaperSetting } from '../../render/paper.js';
import { ENVELOPES } from '../../invoice/envelopes.js';
import { PAGE_MARGINS } from '../../render/printOptions.js';
import { jsonBody } from '../jsonBody.js';
import { renderingUnavailable } from '../../operations/invoiceOperations.js';
import { pdfPageImages } from './pageImages.js';
import type { TemplateReload } from '../../render/templates.js';
import { templateEvents as createTemplateEvents, type TemplateEvents } from './templateEvents.js';

/** One locale per invoice language for the preview's switch (any BCP 47 tag works in the JSON). */
const PREVIEW_LOCALES = [
  'en-US',
  'de-DE',
  'fr-FR',
  'es-ES',
  'it-IT',
  'nl-NL',
  'pt-PT',
  'pl-PL',
  'sv-SE',
  'hr-HR',
  'ja-JP',
  'zh-CN',
  'ar-EG',
  'he-IL',
  'hi-IN',
];

/**
 * The development preview (PREVIEW=on, development only): GET /preview is a static page
 * (page/index.html, preview.js, preview.css, served as they are on disk) that posts the invoice
 * JSON from its editor to the routes below and listens to /preview/events for template changes.
 *
 * These routes are development tooling, not API: they are not in the route table, so no
 * discovery document lists them, and when the preview is off they don't exist (404). The PDF
 * routes call the renderer directly, without payment; that is why the preview is refused outside
 * development (config.ts).
 */
export interface PreviewRenderer {
  renderPdf(prepared: PreparedInvoice, options: { paper: PaperSetting }): Promise<{ pdf: Buffer; pages: number }>;
  /** The HTML view, filled by the templates the PDF is printed with. */
  renderHtml(prepared: PreparedInvoice): string;
  /** Reloads of those templates (the renderer watches them in development). */
  onTemplatesReloaded(listener: (outcome: TemplateReload) => void): () => void;
}

export interface PreviewOptions {
  /** Fills the HTML, prints the PDF and the page images; without it those routes answer 501. */
  renderer?: PreviewRenderer | undefined;
  /** Paper of a request that names none (the configured PAPER_SIZE); the page's switch starts there. */
  paperSize: PaperSetting;
  bodyLimitBytes: number;
  /** Where themes named by id ("theme": "sha256:…") are looked up, as the PDF routes do. */
  themes?: ThemeStore | undefined;
  /** Where fonts named by id in a theme are looked up, as the PDF routes do. */
  fonts?: FontStore | undefined;
}

/** The theme switch's samples (inline themes, as an API client may send them). */
const PREVIEW_THEMES: Record<string, Theme> = {
  'serif, comfortable': { font: 'Noto Serif', density: 'comfortable', colors: { accent: '#7a2e8f' } },
  'dense, no line numbers': {
    density: 'compact',
    show: { line_numbers: false, item_codes: false },
    colors: { accent: '#1f2937', tint: '#f3f4f6' },
  },
  'logo centred, green': {
    logo_placement: 'center',
    colors: { accent: '#1d6b4f', ink: '#0f172a' },
    labels: { invoice: 'Tax invoice' },
  },
};

export interface Preview {
  middleware: Middleware;
  /** Ends the open event streams (they would hold a draining server open). */
  close(): void;
}

const PAGE_DIR = new URL('./page/', import.meta.url);
const STATIC_FILES: Record<string, { file: string; type: string }> = {
  '/preview': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/preview/preview.js': { file: 'preview.js', type: 'text/javascript; charset=utf-8' },
  '/preview/preview.css': { file: 'preview.css', type: 'text/css; charset=utf-8' },
};

/**
 * The page loads only its own files. The invoice HTML is shown in a sandboxed srcdoc iframe that
 * inherits this policy: like the PDF's offline Chromium page, it can fetch nothing at all (only
 * its inline <style> applies) and runs no script.
 */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  'img-src data: blob:',
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// 72 dpi: an A4 page is 595 × 842 px, three quarters of its size on screen; enough to see where
// the pages break, and a 9-page invoice answers in ≈ 1.2 s (96 dpi: ≈ 1.7 s and 40% more bytes).
const PAGE_IMAGE_DPI = 72;
const PAGE_IMAGE_TIMEOUT_MS = 20_000;

export function createPreview(options: PreviewOptions): Preview {
  // Created on first use: an app that is never previewed keeps no listener.
  let events: TemplateEvents | undefined;
  let closed = false;
  const templateEvents = () => {
    if (closed) throw new AppError('shutting_down', 'The server is stopping.');
    const renderer = needRenderer(options.renderer);
    return (events ??= createTemplateEvents((listener) => renderer.onTemplatesReloaded(listener)));
  };

  const router = new Router();
  for (const [path, asset] of Object.entries(STATIC_FILES)) {
    router.get(path, async (ctx) => {
      // Read on every request: this is a development page, edits show on reload.
      ctx.body = await readFile(new URL(asset.file, PAGE_DIR));
      ctx.type = asset.type;
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Content-Security-Policy', PAGE_CSP);
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Referrer-Policy', 'no-referrer');
    });
  }

  router.get('/preview/start.json', ownPageOnly, (ctx) => {
    ctx.body = {
      example: EXAMPLE_INVOICE,
      examples: { spec: EXAMPLE_INVOICE, real_world: EXAMPLE_REAL_WORLD_INVOICE },
      currencies: CURRENCY_CODES,
      locales: PREVIEW_LOCALES.map((tag) => ({
        tag,
        name: new Intl.DisplayNames([tag], { type: 'language' }).of(tag.slice(0, 2)) ?? tag,
      })),
      paperSize: options.paperSize,
      margins: PAGE_MARGINS,
      designs: DESIGNS,
      stamps: STAMPS,
      themes: PREVIEW_THEMES,
    };
  });

  router.get('/preview/events', ownPageOnly, (ctx) => templateEvents().subscribe(ctx));

  const invoice = [
    ownPageOnly,
    jsonBody(options.bodyLimitBytes),
    parseInvoice(options.paperSize, options.themes, options.fonts),
  ];

  router.post('/preview/html', ...invoice, (ctx) => {
    const { prepared, paper } = previewInput(ctx);
    const report = buildTotalsReport(prepared);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      html: needRenderer(options.renderer).renderHtml(prepared),
      paper: paperOf(prepared, paper),
      currency: report.currency.code,
      total: report.total.formatted,
    };
  });

  router.post('/preview/pages', ...invoice, async (ctx) => {
    const { prepared, paper } = previewInput(ctx);
    const { pdf, pages } = await needRenderer(options.renderer).renderPdf(prepared, { paper });
    let images: string[] = [];
    let imagesError: string | undefined;
    try {
      images = (await pdfPageImages(pdf, { dpi: PAGE_IMAGE_DPI, timeoutMs: PAGE_IMAGE_TIMEOUT_MS })).map(
        (png) => `data:image/png;base64,${png.toString('base64')}`,
      );
    } catch (error) {
      imagesError = `No page images: pdftoppm (Debian package poppler-utils) failed or is missing: ${String(error)}`;
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { pages, paper: paperOf(prepared, paper), images, ...(imagesError ? { imagesError } : {}) };
  });

  // The real PDF of what the preview shows, free: development only (see the top of this file).
  router.post('/preview/invoice.pdf', ...invoice, async (ctx) => {
    const { prepared, paper } = previewInput(ctx);
    const { pdf, pages } = await needRenderer(options.renderer).renderPdf(prepared, { paper });
    const name = prepared.invoice.invoice_number.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 64);
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `attachment; filename="invoice-${name}.pdf"`);
    ctx.set('X-Page-Count', String(pages));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = pdf;
  });

  return {
    middleware: router.routes() as Middleware,
    close() {
      closed = true;
      events?.close();
    },
  };
}

/**
 * CORS is open for the API, and the preview renders for free: a page on another site must not be
 * able to drive it from the developer's browser. Browsers mark such requests with Sec-Fetch-Site;
 * tools that send no such header (curl, tests) are let through.
 */
const ownPageOnly: Middleware = async (ctx, next) => {
  const site = ctx.get('Sec-Fetch-Site');
  if (site && site !== 'same-origin' && site !== 'none') {
    throw new AppError('forbidden', 'The development preview answers only its own page.');
  }
  await next();
};

/** The body is the invoice, exactly as POST /v1/invoice/validate takes it, with the same 400 body. */
function parseInvoice(
  paperSize: PaperSetting,
  themes: ThemeStore | undefined,
  fonts: FontStore | undefined,
): Middleware {
  return async (ctx, next) => {
    const requested = ctx.query.paper ?? paperSize;
    if (typeof requested !== 'string' || !(PAPER_SETTINGS as readonly string[]).includes(requested)) {
      throw validationFailed([
        { path: 'paper', code: 'invalid_value', message: 'the paper query parameter must be auto, A4 or Letter' },
      ]);
    }
    const body: unknown = ctx.request.body;
    // As the router does for every JSON route (router.ts): koa-body accepts arrays too.
    if (Array.isArray(body)) throw bodyIsAnArray();
    const prepared = await resolveStoredLook(themes, fonts, prepareInvoice(body));
    // A window envelope prints on its own paper (paperOf); a paper asked for against it is refused,
    // as the API refuses a paper an envelope does not take (invoice/envelopes.ts).
    const envelope = prepared.invoice.envelope;
    const ownPaper = envelope === undefined ? undefined : ENVELOPES[envelope].paper;
    if (ctx.query.paper !== undefined && requested !== 'auto' && ownPaper !== undefined && requested !== ownPaper)
      throw validationFailed([
        {
          path: 'paper',
          code: 'paper_conflict',
          message: `${envelope} prints on ${ownPaper}: choose ${ownPaper} or auto`,
        },
      ]);
    ctx.state.preview = { prepared, paper: requested as PaperSetting };
    await next();
  };
}

const previewInput = (ctx: Context): { prepared: PreparedInvoice; paper: PaperSetting } => ctx.state.preview;

function needRenderer(renderer: PreviewRenderer | undefined): PreviewRenderer {
  if (!renderer) throw renderingUnavailable();
  return renderer;
}
