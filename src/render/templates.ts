import { readdirSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { EXAMPLE_INVOICE } from '../invoice/example.js';
import { prepareInvoice } from '../invoice/prepareInvoice.js';
import { buildInvoiceView, type InvoiceView } from './viewModel.js';

/**
 * The designer-editable files: templates/invoice.hbs, every templates/partials/*.hbs (registered
 * under its file name), and styles/*.css inlined into the page in a fixed order. The page footer
 * (partials/page-footer.hbs) is compiled on its own: Chromium renders it in the bottom margin of
 * every page, in a separate document that sees none of the page's CSS.
 *
 * Compiled once at start-up (a broken template stops the service there, not at the first paid
 * request). With `watch`, files are recompiled on change; a broken edit is logged and the last
 * good version keeps serving, so a typo doesn't take a development server down.
 */
export interface InvoiceTemplates {
  /** The complete, self-contained HTML document of an invoice. */
  page(view: InvoiceView): string;
  /** Chromium's footerTemplate: invoice number and "Page X of Y". */
  footer(view: InvoiceView): string;
  close(): void;
}

export interface TemplateOptions {
  watch?: boolean;
  /** Folder holding templates/ and styles/; the project root by default. */
  root?: string;
  log?: (event: object) => void;
}

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Later files override earlier ones; print.css holds the paged-media rules. */
const STYLESHEETS = ['invoice.css', 'print.css'];
const FOOTER_PARTIAL = 'page-footer';

// strict: a field the view model doesn't have is an error, not a silently empty cell.
// knownHelpersOnly: templates can use the built-in helpers but can't call something unexpected.
const COMPILE_OPTIONS: CompileOptions = { strict: true, knownHelpersOnly: true, preventIndent: true };

/** The page template also receives the inlined stylesheets. */
type PageData = InvoiceView & { css: Handlebars.SafeString };

interface Compiled {
  page: HandlebarsTemplateDelegate<PageData>;
  footer: HandlebarsTemplateDelegate<InvoiceView>;
  css: Handlebars.SafeString;
}

export function loadInvoiceTemplates(options: TemplateOptions = {}): InvoiceTemplates {
  const root = options.root ?? PROJECT_ROOT;
  let compiled = compileAll(root);
  const watchers: FSWatcher[] = [];

  if (options.watch) {
    let timer: NodeJS.Timeout | undefined;
    const reload = () => {
      clearTimeout(timer);
      // Editors write a file in several steps; wait for the burst to end.
      timer = setTimeout(() => {
        try {
          compiled = compileAll(root);
          options.log?.({ event: 'templates_reloaded' });
        } catch (error) {
          options.log?.({ event: 'templates_reload_failed', error: String(error) });
        }
      }, 100);
      timer.unref();
    };
    for (const dir of ['templates', 'templates/partials', 'styles']) {
      watchers.push(watch(join(root, dir), { persistent: false }, reload));
    }
  }

  return {
    page: (view) => compiled.page({ ...view, css: compiled.css }),
    footer: (view) => compiled.footer(view),
    close: () => watchers.forEach((watcher) => watcher.close()),
  };
}

function compileAll(root: string): Compiled {
  const hb = Handlebars.create();
  const partialsDir = join(root, 'templates', 'partials');
  const partials = readdirSync(partialsDir).filter((file) => file.endsWith('.hbs')).sort();
  for (const file of partials) {
    hb.registerPartial(basename(file, '.hbs'), readFileSync(join(partialsDir, file), 'utf8'));
  }
  const compiled: Compiled = {
    page: hb.compile<PageData>(readFileSync(join(root, 'templates', 'invoice.hbs'), 'utf8'), COMPILE_OPTIONS),
    footer: hb.compile<InvoiceView>(readFileSync(join(partialsDir, `${FOOTER_PARTIAL}.hbs`), 'utf8'), COMPILE_OPTIONS),
    // Our own files, trusted: SafeString keeps the templates free of triple-stash altogether.
    css: new hb.SafeString(readStyles(root)),
  };
  // Handlebars compiles lazily on first use; fill the example now so that a syntax error or an
  // unknown field surfaces at start-up, and the first real request doesn't pay for compilation.
  const example = buildInvoiceView(prepareInvoice(EXAMPLE_INVOICE));
  compiled.page({ ...example, css: compiled.css });
  compiled.footer(example);
  return compiled;
}

function readStyles(root: string): string {
  const css = STYLESHEETS.map((file) => readFileSync(join(root, 'styles', file), 'utf8')).join('\n');
  // The CSS is inlined into a <style> element; a closing tag in it would end that element early.
  if (/<\/style/i.test(css)) throw new Error('styles must not contain "</style"');
  return css;
}
