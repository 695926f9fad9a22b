import Handlebars from 'handlebars';
import { parse } from 'parse5';
import { InputRejected } from '../errors.js';
import type { TemplatePackage } from '../invoice/templatePackage.js';
import { budgetedPage, budgetedPartial } from './fillBudget.js';
import { FillPlaces, traceBlocks, tracedPartial } from './fillTrace.js';

/**
 * The page a customer's design prints from: a content security policy that lets nothing load or run
 * (the renderer's lock-down already stops every request; this is the page's own refusal, so that a
 * page never even asks), placed first in <head> before anything the design wrote.
 */
export const DESIGN_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'";
export const CSP_META = `<meta http-equiv="Content-Security-Policy" content="${DESIGN_CSP}">`;

/**
 * The design page without its CSP meta, for a render page that already holds the policy
 * (printPage.ts): a document's policies stay when Page.setDocumentContent writes the next document
 * (document.open keeps them, as the HTML standard says), so the page is under DESIGN_CSP either way.
 * Undefined when the page carries no such meta (a built-in design's page).
 */
export function withoutDesignCsp(html: string): string | undefined {
  const at = html.indexOf(CSP_META);
  return at === -1 ? undefined : html.slice(0, at) + html.slice(at + CSP_META.length);
}

/** What templates.ts compiles with: strict (a missing field is an error) and known helpers only. */
export const COMPILE_OPTIONS: CompileOptions = { strict: true, knownHelpersOnly: true, preventIndent: true };

/**
 * Compiles a complete, checked package (checkPackage.ts) on a Handlebars instance of its own: its
 * partials, and its page with the CSP inserted right after the <head> start tag. Handlebars compiles
 * lazily, so the caller fills it once (the content contract does) before any paid page needs it.
 * Each fill is on a budget of iterations, partial calls and output (fillBudget.ts), and can be
 * traced (fillTrace.ts).
 */
export function compilePackagePage<T>(complete: Required<TemplatePackage>): HandlebarsTemplateDelegate<T> {
  // Packages that differ in their CSS alone (most: classic's markup restyled) share one page.
  const key = JSON.stringify([complete.html, complete.partials]);
  let found = pages.get(key);
  if (!found) {
    if (pages.size >= PAGES_KEPT) pages.clear();
    const hb = Handlebars.create();
    const places = new FillPlaces();
    for (const [name, source] of Object.entries(complete.partials))
      hb.registerPartial(name, tracedPartial(places, name, budgetedPartial(compiledPartial(source))));
    pages.set(key, (found = budgetedPage(hb, hb.compile(withCsp(complete.html), COMPILE_OPTIONS))));
    // Over the budget's helpers: which way each block went, for the print-time check (fillTrace.ts).
    traceBlocks(hb, places);
  }
  return found as HandlebarsTemplateDelegate<T>;
}

/**
 * Pages compiled once per markup (page and partials) and shared by every package that has it: a
 * new package's page took 14-70 ms of the event loop to parse (parse5) and compile on its first
 * fill, measured 2026-12-06, though most packages change only the CSS.
 */
const PAGES_KEPT = 64;
const pages = new Map<string, HandlebarsTemplateDelegate>();

/**
 * Partials compiled once per source text and shared by every package that has it: most of a
 * package is classic's partials, and compiling them was most of a preview's cost (≈ 30 ms of each
 * new package). A partial given as a compiled template is called as is; compiled with the options
 * a page's partials get (COMPILE_OPTIONS), it fills exactly as its source would.
 */
const PARTIALS_KEPT = 256;
const partials = new Map<string, HandlebarsTemplateDelegate>();
function compiledPartial(source: string): HandlebarsTemplateDelegate {
  let found = partials.get(source);
  if (!found) {
    if (partials.size >= PARTIALS_KEPT) partials.clear();
    partials.set(source, (found = Handlebars.create().compile(source, COMPILE_OPTIONS)));
  }
  return found;
}

/**
 * A checked design that still fails to fill for one invoice (strict mode meets a field only this
 * invoice's data leads to, e.g. inside {{#if logo}} when no reference invoice had a logo): a 400
 * naming the design, before anything is printed or settled, rather than a render failure.
 */
export function designFillFailed(error: unknown): InputRejected {
  const text = String((error as { message?: unknown })?.message ?? error).slice(0, 300);
  return new InputRejected('template_invalid', `The design cannot be filled with this invoice: ${text}`, [
    { path: 'design', code: 'fill_failed', message: text },
  ]);
}

/** Where the <head> start tag ends in the page template, or undefined when it has none written out. */
export function headEnd(html: string): number | undefined {
  const document = parse(markupSkeleton(html), { sourceCodeLocationInfo: true });
  const htmlElement = document.childNodes.find((node) => 'tagName' in node && node.tagName === 'html');
  const head =
    htmlElement && 'childNodes' in htmlElement
      ? htmlElement.childNodes.find((node) => 'tagName' in node && node.tagName === 'head')
      : undefined;
  const location = head && 'tagName' in head ? head.sourceCodeLocation : undefined;
  return location?.startTag?.endOffset;
}

function withCsp(html: string): string {
  const end = headEnd(html);
  if (end === undefined) throw new Error('a design page has a <head> start tag (checkPackage.ts)');
  return html.slice(0, end) + CSP_META + html.slice(end);
}

/** What a value or partial of a template becomes in its markup skeleton (a private-use character). */
export const PLACEHOLDER = '\uE000';

/**
 * The file with every `{{…}}` replaced by characters of the same length, newlines kept: a value or
 * partial (what prints) by placeholders, a comment, block tag or `{{else}}` (what prints nothing
 * itself) by spaces.
 */
export function markupSkeleton(source: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const open = source.indexOf('{{', at);
    if (open === -1) return out + source.slice(at);
    const comment = source.startsWith('{{!--', open);
    const close = comment ? source.indexOf('--}}', open + 5) : source.indexOf('}}', open + 2);
    const end =
      close === -1 ? source.length : close + (comment ? 4 : 2) + (!comment && source[close + 2] === '}' ? 1 : 0);
    const tag = source.slice(open, end);
    const silent = /^\{\{~?\s*(!|#|\/|\^|else\b)/.test(tag);
    out += source.slice(at, open) + tag.replace(/[^\n]/g, silent ? ' ' : PLACEHOLDER);
    at = end;
  }
}
