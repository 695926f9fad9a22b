import * as csstree from 'css-tree';
import { issueAt, type TemplateFile, type TemplateIssue } from './templateIssue.js';

/**
 * The CSS rules of a package, read by a real CSS parser (css-tree), never by patterns:
 *  - it parses (every syntax error with its line and column);
 *  - no `@import` and no `url()` or `image-set()`/`image()`/`src()`: nothing is fetched, and the
 *    data a page may use (the logo, the QR code) arrives in the markup from the service; fonts by id
 *    come with the fonts the service writes as @font-face, never from the template's CSS;
 *  - no `@font-face` of its own, for the same reason;
 *  - no page-margin boxes (`@top-left`, `@bottom-right`, …): they hold the page numbers the service
 *    prints on every page (src/render/invoiceCss.ts);
 *  - no `pointer-events`: a printed page has no pointer, and the content contract finds a box
 *    painted over a fact by hit testing, which `pointer-events: none` would hide it from;
 *  - no "</style": the stylesheet is inlined into a <style> element, which it would end early.
 * `where` offsets a style attribute's places to its place in the file.
 */
const FETCHING_FUNCTIONS = new Set(['image-set', '-webkit-image-set', 'image', 'src', 'cross-fade', 'element']);
const MARGIN_BOXES = new Set([
  'top-left-corner',
  'top-left',
  'top-center',
  'top-right',
  'top-right-corner',
  'bottom-left-corner',
  'bottom-left',
  'bottom-center',
  'bottom-right',
  'bottom-right-corner',
  'left-top',
  'left-middle',
  'left-bottom',
  'right-top',
  'right-middle',
  'right-bottom',
]);

export function checkCss(
  file: TemplateFile,
  css: string,
  options: { context?: 'stylesheet' | 'declarationList'; where?: { line: number; column: number } } = {},
): TemplateIssue[] {
  const issues: TemplateIssue[] = [];
  const base = options.where;
  const place = (line: number, column: number) =>
    base ? { line: base.line + line - 1, column: line === 1 ? base.column + column - 1 : column } : { line, column };
  const add = (code: string, message: string, at: { line: number; column: number } | undefined) =>
    issues.push(issueAt(file, code, message, at ? place(at.line, at.column) : undefined));

  const closing = css.search(/<\/style/i);
  if (closing !== -1) add('css_syntax', 'must not contain "</style"', lineColumn(css, closing));
  const ast = csstree.parse(css, {
    context: options.context ?? 'stylesheet',
    positions: true,
    onParseError: (error) => {
      const { line, column } = error as unknown as { line: number; column: number };
      add('css_syntax', error.message, { line, column });
    },
  });
  csstree.walk(ast, (node) => {
    const at = node.loc?.start;
    if (node.type === 'Atrule') {
      const name = node.name.toLowerCase();
      if (name === 'import') add('css_import', '@import would load another stylesheet', at);
      else if (name === 'font-face')
        add('css_font_face', '@font-face is not allowed: fonts come from the package\'s "fonts" (fonts by id)', at);
      else if (MARGIN_BOXES.has(name))
        add('css_page_margin_box', `@${name} is the service's: the page margin boxes hold the page numbers`, at);
    } else if (node.type === 'Declaration' && node.property.toLowerCase() === 'pointer-events') {
      add('css_pointer_events', 'pointer-events is not for print: the content contract hit-tests what covers a fact', at);
    } else if (node.type === 'Url') {
      add('css_url', 'url() would load a resource; nothing is loaded from a design', at);
    } else if (node.type === 'Function' && FETCHING_FUNCTIONS.has(node.name.toLowerCase())) {
      add('css_url', `${node.name}() would load a resource; nothing is loaded from a design`, at);
    }
  });
  return issues;
}

/** The 1-based line and column of an offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line++;
    start = index + 1;
  }
  return { line, column: offset - start + 1 };
}
