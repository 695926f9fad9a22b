import { existsSync, readdirSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { DESIGNS, type DesignName } from '../invoice/designFields.js';
import { EXAMPLE_INVOICE } from '../invoice/example.js';
import { EXAMPLE_REAL_WORLD_INVOICE } from '../invoice/exampleRealWorld.js';
import { prepareInvoice, type PreparedInvoice } from '../invoice/prepareInvoice.js';
import type { InvoiceInput } from '../invoice/schema.js';
import { invoiceCss } from './invoiceCss.js';
import { themeCss } from './themeCss.js';
import { envelopeCss } from './envelopeView.js';
import { loadLabelCatalogs, type LabelCatalogs } from './labelCatalogs.js';
import type { InvoiceView } from './invoiceView.js';
import { buildInvoiceView } from './viewModel.js';
import { INBOUND_WARM_UP } from './inboundExample.js';
import { joinDocumentPages } from './inboundPages.js';
import { buildInboundView, type InboundRender } from './inboundView.js';
import { COMPILE_OPTIONS, compilePackagePage, designFillFailed } from './designPage.js';
import type { TemplatePackage } from '../invoice/templatePackage.js';
import { completePackage } from './builtinPackages.js';
import { fontFaceCss } from '../fonts/fontFace.js';
import { packageFontFaces } from './packageFontFaces.js';
import type { PackageFonts } from '../invoice/templatePackage.js';

/**
 * The designer-editable files: templates/invoice.hbs, every templates/partials/*.hbs (registered
 * under its file name), the label catalogs templates/locales/*.json, and styles/*.css inlined
 * into the page in a fixed order. Each design (templates/designs/<name>/, one per entry of
 * DESIGNS) adds its design.css after styles/invoice.css and may replace invoice.hbs and any
 * partial with a file of the same name in its folder (templates/README.md).
 *
 * Compiled once at start-up (a broken template stops the service there, not at the first paid
 * request). With `watch`, files are recompiled on change; a broken edit is logged and the last
 * good version keeps serving, so a typo doesn't take a development server down.
 */
export interface InvoiceTemplates {
  /** The view model of an invoice, with the label catalogs currently loaded. */
  view(prepared: PreparedInvoice): InvoiceView;
  /** The view model of an inbound e-invoice (inboundView.ts), with the same catalogs. */
  inboundView(render: InboundRender): InvoiceView;
  /** The complete, self-contained HTML document of an invoice, as the preview shows it. */
  page(view: InvoiceView): string;
  /** The same document as the renderer prints it: with SCREEN_OFF_CSS added. */
  printPage(view: InvoiceView): string;
  /**
   * The page of a customer's stored design (src/templates/): the package compiled once per id and
   * kept (STORED_DESIGNS_KEPT), its CSS between the service's base and late stylesheets.
   */
  designPage(view: InvoiceView, design: StoredDesign, print: boolean): string;
  /** Several documents of one file printed as one, each from a new page (inboundPages.ts). */
  printPages(views: readonly InvoiceView[]): string;
  /** With `watch`: called after every reload, or failed reload (the last good version keeps serving). Returns the unsubscribe. */
  onReload(listener: (outcome: TemplateReload) => void): () => void;
  close(): void;
}

/** A checked package by its id (src/templates/storedTemplates.ts), complete (what it left out is classic's). */
interface StoredDesign {
  id: string;
  package: TemplatePackage;
  /** The stored fonts the package's `fonts` names, by family (src/render/packageFontFaces.ts). */
  fonts?: PackageFonts | undefined;
}

/** Compiled stored designs kept in memory: a compile costs ≈ a render, a kept one nothing. */
const STORED_DESIGNS_KEPT = 64;

export type TemplateReload = { ok: true } | { ok: false; error: string };

export interface TemplateOptions {
  watch?: boolean;
  /** Folder holding templates/ and styles/; the project root by default. */
  root?: string;
  log?: (event: object) => void;
}

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Later files override earlier ones: the shared look, then the design's design.css (DESIGN_CSS),
 * then look.css (stamps, theme density and logo placement) and print.css (paged media).
 */
const BASE_STYLESHEETS = ['invoice.css'];
const DESIGN_CSS = 'design.css';
const LATE_STYLESHEETS = ['look.css', 'envelope.css', 'print.css'];
/** Inlined only into invoices that carry a Swiss QR-bill, so other invoices print as before. */
const QR_BILL_STYLESHEETS = ['qr-bill.css'];
/** Inlined only into inbound e-invoices' pages (inboundView.ts). */
const INBOUND_STYLESHEETS = ['inbound.css'];

// COMPILE_OPTIONS: strict (a field the view model doesn't have is an error, not a silently empty
// cell) and knownHelpersOnly (templates use the built-in helpers, nothing unexpected).

/**
 * Added to the stylesheets of the printed copy only. The renderer's page is never looked at, yet
 * Chromium lays it out for the screen after parsing and again after printing (to restore the
 * screen); with nothing to show on screen both cost nothing. That is 14% of a 200-line render
 * (npm run bench:print-path; the printed PDF is the same, byte for byte apart from its
 * timestamps). Print media is untouched.
 */
export const SCREEN_OFF_CSS =
  "\n/* The renderer's copy is printed, never shown (src/render/templates.ts). */\n@media screen { body { display: none; } }\n";

/** The page template also receives the inlined stylesheets. */
type PageData = InvoiceView & { css: Handlebars.SafeString };

interface CompiledDesign {
  page: HandlebarsTemplateDelegate<PageData>;
  css: string;
}

interface Compiled {
  designs: Record<DesignName, CompiledDesign>;
  /** styles/ before and after a design's design.css, for stored designs. */
  baseCss: string;
  lateCss: string;
  qrBillCss: string;
  inboundCss: string;
  catalogs: LabelCatalogs;
}

export function loadInvoiceTemplates(options: TemplateOptions = {}): InvoiceTemplates {
  const root = options.root ?? PROJECT_ROOT;
  let compiled = compileAll(root);
  // A Map keeps insertion order: the first entry is the least recently used.
  const stored = new Map<string, CompiledDesign>();
  const storedDesign = (design: StoredDesign): CompiledDesign => {
    let found = stored.get(design.id);
    if (found) stored.delete(design.id);
    else
      found = {
        page: compilePackagePage<PageData>(completePackage(design.package, root)),
        css: [compiled.baseCss, checkedCss(completePackage(design.package, root).css), compiled.lateCss].join('\n'),
      };
    stored.set(design.id, found);
    if (stored.size > STORED_DESIGNS_KEPT) stored.delete(stored.keys().next().value!);
    return found;
  };
  const watchers: FSWatcher[] = [];
  const listeners = new Set<(outcome: TemplateReload) => void>();
  const reloaded = (outcome: TemplateReload) => listeners.forEach((listener) => listener(outcome));

  if (options.watch) {
    let timer: NodeJS.Timeout | undefined;
    const reload = () => {
      clearTimeout(timer);
      // Editors write a file in several steps; wait for the burst to end.
      timer = setTimeout(() => {
        try {
          compiled = compileAll(root);
          stored.clear();
          options.log?.({ event: 'templates_reloaded' });
          reloaded({ ok: true });
        } catch (error) {
          options.log?.({ event: 'templates_reload_failed', error: String(error) });
          reloaded({ ok: false, error: String(error) });
        }
      }, 100);
      timer.unref();
    };
    const designDirs = DESIGNS.flatMap((design) => [
      `templates/designs/${design}`,
      `templates/designs/${design}/partials`,
    ]);
    for (const dir of [
      'templates',
      'templates/partials',
      'templates/locales',
      'styles',
      'templates/designs',
      ...designDirs,
    ]) {
      if (existsSync(join(root, dir))) watchers.push(watch(join(root, dir), { persistent: false }, reload));
    }
  }

  return {
    view: (prepared) => buildInvoiceView(prepared, compiled.catalogs),
    inboundView: (render) => buildInboundView(render, compiled.catalogs),
    page: (view) => fill(compiled, view, ''),
    designPage: (view, design, print) => {
      // The package's fonts as @font-face rules the service writes (the renderer gives the page
      // their bytes: src/render/pageFonts.ts); the package's own CSS never has url().
      const faces = fontFaceCss(packageFontFaces(design.package, design.fonts));
      try {
        return fillDesign(compiled, storedDesign(design), view, `${faces}\n${print ? SCREEN_OFF_CSS : ''}`);
      } catch (error) {
        throw designFillFailed(error);
      }
    },
    printPage: (view) => fill(compiled, view, SCREEN_OFF_CSS),
    printPages: (views) => joinDocumentPages(views.map((view) => fill(compiled, view, SCREEN_OFF_CSS))),
    onReload(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      watchers.forEach((watcher) => watcher.close());
      listeners.clear();
    },
  };
}

function compileAll(root: string): Compiled {
  const folders = readdirSync(join(root, 'templates', 'designs')).filter((name) => !name.startsWith('.'));
  const unlisted = folders.filter((name) => !(DESIGNS as readonly string[]).includes(name));
  if (unlisted.length > 0)
    throw new Error(
      `templates/designs/${unlisted[0]} is not a design: add its name to DESIGNS in src/invoice/designFields.ts`,
    );
  const compiled: Compiled = {
    designs: Object.fromEntries(DESIGNS.map((design) => [design, compileDesign(root, design)])) as Record<
      DesignName,
      CompiledDesign
    >,
    baseCss: readStyles(root, BASE_STYLESHEETS),
    lateCss: readStyles(root, LATE_STYLESHEETS),
    qrBillCss: readStyles(root, QR_BILL_STYLESHEETS),
    inboundCss: readStyles(root, INBOUND_STYLESHEETS),
    catalogs: loadLabelCatalogs(root),
  };
  // Handlebars compiles lazily on first use, partials too, and only the branches taken; fill the
  // examples now in every design (between them every partial: real-world fields, payment panel,
  // QR-bill, stamp) so that a syntax error or an unknown field surfaces at start-up, and no
  // request pays for compilation.
  for (const design of DESIGNS) {
    for (const example of WARM_UP_INVOICES)
      fill(compiled, buildInvoiceView(prepareInvoice({ ...example, design }), compiled.catalogs), '');
  }
  // The inbound e-invoice page's partials (inboundExample.ts fills every one of them).
  fill(compiled, buildInboundView(INBOUND_WARM_UP, compiled.catalogs), '');
  // A customer's package compiles on a Handlebars instance of its own, through parse5
  // (designPage.ts): classic as a package, compiled and filled now, runs that code once and compiles
  // classic's partials into the cache packages share. Otherwise the first package a request brings
  // paid for it: 128-237 ms of the event loop at once, against 14-70 ms for a new package after it
  // (measured 2026-12-06; the largest stall of the flood of reliability 11, docs/reliability.md).
  const asPackage: CompiledDesign = {
    page: compilePackagePage<PageData>(completePackage({}, root)),
    css: compiled.baseCss,
  };
  for (const example of WARM_UP_INVOICES)
    fillDesign(compiled, asPackage, buildInvoiceView(prepareInvoice(example), compiled.catalogs), '');
  return compiled;
}

/** The shared partials with the design's own over them, and the design's template if it has one. */
function compileDesign(root: string, design: DesignName): CompiledDesign {
  const hb = Handlebars.create();
  const folder = join(root, 'templates', 'designs', design);
  if (!existsSync(join(folder, DESIGN_CSS))) throw new Error(`templates/designs/${design}/${DESIGN_CSS} is missing`);
  for (const partialsDir of [join(root, 'templates', 'partials'), join(folder, 'partials')]) {
    if (!existsSync(partialsDir)) continue;
    for (const file of readdirSync(partialsDir)
      .filter((name) => name.endsWith('.hbs'))
      .sort()) {
      hb.registerPartial(basename(file, '.hbs'), readFileSync(join(partialsDir, file), 'utf8'));
    }
  }
  const own = join(folder, 'invoice.hbs');
  const template = readFileSync(existsSync(own) ? own : join(root, 'templates', 'invoice.hbs'), 'utf8');
  const css = [
    readStyles(root, BASE_STYLESHEETS),
    checkedCss(readFileSync(join(folder, DESIGN_CSS), 'utf8')),
    readStyles(root, LATE_STYLESHEETS),
  ].join('\n');
  return { page: hb.compile<PageData>(template, COMPILE_OPTIONS), css };
}

const WARM_UP_INVOICES: readonly InvoiceInput[] = [
  EXAMPLE_INVOICE,
  EXAMPLE_REAL_WORLD_INVOICE,
  // The real-world example paid by Swiss QR-bill (its own partial and page).
  {
    ...EXAMPLE_REAL_WORLD_INVOICE,
    currency: 'CHF',
    locale: 'de-CH',
    seller: {
      ...EXAMPLE_REAL_WORLD_INVOICE.seller,
      street: 'Rue du Lac 1268',
      postal_code: '2501',
      city: 'Biel',
      country: 'CH',
      vat_id: 'CHE123456789',
    },
    payment: { qr_iban: 'CH4431999123000889012', qr_reference: '210000000003139471430009017' },
  },
  // A stamp and a theme (the stamp partial; every optional block left out).
  {
    ...EXAMPLE_INVOICE,
    stamp: 'paid',
    theme: {
      density: 'compact',
      logo_placement: 'end',
      show: { line_numbers: false, item_codes: false, logo: false, notes: false },
    },
  },
];

/** The page with its styles: our stylesheets, this invoice's few rules (invoiceCss.ts), `extra`. */
function fill(compiled: Compiled, view: InvoiceView, extra: string): string {
  // Our own files and invoiceCss's checked output: SafeString keeps the templates free of
  // triple-stash altogether.
  return fillDesign(compiled, compiled.designs[view.design], view, extra);
}

function fillDesign(compiled: Compiled, design: CompiledDesign, view: InvoiceView, extra: string): string {
  const qrBill = view.swissQrBill ? `\n${compiled.qrBillCss}` : '';
  const inbound = view.inbound ? `\n${compiled.inboundCss}` : '';
  return design.page({
    ...view,
    css: new Handlebars.SafeString(
      design.css + qrBill + inbound + themeCss(view.style) + envelopeCss(view.envelope) + invoiceCss(view) + extra,
    ),
  });
}

function readStyles(root: string, files: readonly string[]): string {
  return checkedCss(files.map((file) => readFileSync(join(root, 'styles', file), 'utf8')).join('\n'));
}

function checkedCss(css: string): string {
  // The CSS is inlined into a <style> element; a closing tag in it would end that element early.
  if (/<\/style/i.test(css)) throw new Error('styles must not contain "</style"');
  return css;
}
