import { parse, parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import { checkCss } from './checkCss.js';
import { markupSkeleton, PLACEHOLDER } from '../render/designPage.js';
import { issueAt, type TemplateFile, type TemplateIssue } from './templateIssue.js';

type Element = DefaultTreeAdapterMap['element'];
type ParentNode = DefaultTreeAdapterMap['parentNode'];

/**
 * The markup rules of a package file, read by an HTML parser (parse5, the HTML standard's parsing)
 * over the file with every `{{…}}` replaced by as many placeholder characters (line and column stay
 * the file's own):
 *  - no element that runs, loads or embeds anything (script, frames, object, embed, base, link,
 *    media, forms, `meta http-equiv`, SVG's image, animation and foreignObject);
 *  - no event-handler attribute and no `srcdoc`; no URL attribute but a fragment (`#…`), and the
 *    one data the service provides in markup, the logo (`src="{{logo.src}}"` on an img);
 *  - no field in a tag or attribute name, an unquoted attribute value, a style attribute or a
 *    <style> element: a field prints as text, never as markup or CSS. The page's one <style>
 *    holds `{{css}}` and nothing else; style attributes are checked as CSS (checkCss.ts).
 * The pages filled from the package are read again with the same rules (checkFilledPage), for
 * markup that only forms once the blocks are filled.
 */
const FORBIDDEN_ELEMENTS = new Set([
  'script',
  'noscript',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'base',
  'link',
  'portal',
  'video',
  'audio',
  'source',
  'track',
  'picture',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'template',
  'image',
  'feimage',
  'foreignobject',
  'animate',
  'set',
  'animatemotion',
  'animatetransform',
]);
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'srcset',
  'action',
  'formaction',
  'poster',
  'background',
  'data',
  'cite',
  'ping',
  'longdesc',
  'usemap',
  'lowsrc',
  'dynsrc',
  'codebase',
  'manifest',
  'icon',
  'profile',
  'archive',
  'classid',
]);
const LOGO_SRC = /^\{\{\s*logo\.src\s*\}\}$/;
const CSS_FIELD = /^\s*\{\{\s*css\s*\}\}\s*$/;

export function checkMarkup(file: TemplateFile, source: string): TemplateIssue[] {
  const skeleton = markupSkeleton(source);
  const issues: TemplateIssue[] = [];
  const root = file === 'html' ? parse(skeleton, { sourceCodeLocationInfo: true }) : parseFragment(skeleton, { sourceCodeLocationInfo: true });
  walk(root, (element) => {
    const location = element.sourceCodeLocation;
    const at = location ? { line: location.startLine, column: location.startCol } : undefined;
    const add = (code: string, message: string, where = at) => issues.push(issueAt(file, code, message, where));
    const tag = element.tagName;
    if (tag.includes(PLACEHOLDER)) return add('handlebars_in_markup', 'a field cannot be part of a tag name');
    const elementIssue = elementRule(element, file, (start, end) => source.slice(start, end));
    if (elementIssue) add(elementIssue.code, elementIssue.message);
    for (const attribute of element.attrs) {
      const name = attribute.prefix ? `${attribute.prefix}:${attribute.name}` : attribute.name;
      const spot = location?.attrs?.[name];
      const where = spot ? { line: spot.startLine, column: spot.startCol } : at;
      const raw = spot ? source.slice(spot.startOffset, spot.endOffset) : '';
      const value = attribute.value;
      const hasField = value.includes(PLACEHOLDER);
      if (name.includes(PLACEHOLDER)) add('handlebars_in_markup', 'a field cannot be an attribute name', where);
      else if (hasField && !/=\s*["']/.test(raw))
        add('handlebars_in_markup', `quote the value of ${name}: a field in an unquoted value could add attributes`, where);
      const issue = attributeRule(tag, name, value, raw);
      if (issue) add(issue.code, issue.message, where);
      else if (name === 'style' && spot)
        issues.push(...checkCss(file, value, { context: 'declarationList', where: valueStart(spot, raw) }));
    }
  });
  return issues;
}

/** The rules again over a filled page (parsed as the browser will), for what only forms once filled. */
export function checkFilledPage(
  document: DefaultTreeAdapterMap['document'],
  ownCsp: string,
): { code: string; message: string }[] {
  const found: { code: string; message: string }[] = [];
  walk(document, (element) => {
    // The service's own content security policy (compilePackage.ts) is the one meta it adds.
    const csp = element.attrs.find((attribute) => attribute.name === 'content')?.value;
    if (element.tagName === 'meta' && csp === ownCsp) return;
    const issue = elementRule(element, 'html', () => '');
    if (issue && issue.code !== 'style_element') found.push(issue);
    for (const attribute of element.attrs) {
      const name = attribute.prefix ? `${attribute.prefix}:${attribute.name}` : attribute.name;
      // The filled logo is a data URI the service made (src/invoice/logo.ts).
      const logo = element.tagName === 'img' && name === 'src' && attribute.value.startsWith('data:image/');
      const rule = logo ? undefined : attributeRule(element.tagName, name, attribute.value, '');
      if (rule && rule.code !== 'handlebars_in_markup') found.push(rule);
    }
  });
  return found;
}

function elementRule(
  element: Element,
  file: TemplateFile,
  sourceOf: (start: number, end: number) => string,
): { code: string; message: string } | undefined {
  const tag = element.tagName;
  if (tag === 'script' || tag === 'noscript') return { code: 'script', message: `<${tag}> is not allowed: nothing runs in the page` };
  if (FORBIDDEN_ELEMENTS.has(tag))
    return { code: 'forbidden_element', message: `<${tag}> is not allowed: nothing is loaded, embedded or run` };
  if (tag === 'meta' && element.attrs.some((attribute) => attribute.name !== 'charset'))
    return { code: 'forbidden_element', message: '<meta> may only give the charset (no http-equiv)' };
  if (tag === 'style') {
    const location = element.sourceCodeLocation;
    const inner =
      location?.startTag && location.endTag ? sourceOf(location.startTag.endOffset, location.endTag.startOffset) : '';
    if (file !== 'html' || !CSS_FIELD.test(inner))
      return { code: 'style_element', message: 'the page has one <style>, holding {{css}} only: put styles in the package\'s css' };
  }
  return undefined;
}

function attributeRule(tag: string, name: string, value: string, raw: string): { code: string; message: string } | undefined {
  const lower = name.toLowerCase();
  const field = value.includes(PLACEHOLDER);
  if (lower.startsWith('on')) return { code: 'event_handler', message: `${name} is an event handler: nothing runs in the page` };
  if (lower === 'srcdoc') return { code: 'forbidden_element', message: 'srcdoc would embed a document' };
  if (lower === 'style' && field) return { code: 'handlebars_in_markup', message: 'a field cannot go into a style attribute' };
  const bare = lower.replace(/^xlink:/, '');
  if (!URL_ATTRIBUTES.has(bare)) return undefined;
  const rawValue = raw.replace(/^[^=]*=\s*["']?/, '').replace(/["']$/, '');
  if (tag === 'img' && bare === 'src' && LOGO_SRC.test(rawValue)) return undefined;
  if (field) return { code: 'external_url', message: `a field cannot go into ${name}: only {{logo.src}} on an img` };
  const url = value.trim().toLowerCase();
  if (url.startsWith('#')) return undefined;
  if (url.replace(/[\s\u0000-\u001f]/g, '').startsWith('javascript:'))
    return { code: 'javascript_url', message: `${name} holds a javascript: URL` };
  if (url.startsWith('file:')) return { code: 'file_url', message: `${name} holds a file: URL` };
  return { code: 'external_url', message: `${name} would load or link "${value.slice(0, 60)}": only #fragments` };
}

/** Where an attribute's value starts (after name, "=" and the quote), for CSS places in a style attribute. */
function valueStart(spot: { startLine: number; startCol: number }, raw: string): { line: number; column: number } {
  const prefix = /^[^=]*=\s*["']?/.exec(raw)?.[0] ?? '';
  const lines = prefix.split('\n');
  return lines.length === 1
    ? { line: spot.startLine, column: spot.startCol + prefix.length }
    : { line: spot.startLine + lines.length - 1, column: lines.at(-1)!.length + 1 };
}

function walk(node: ParentNode, visit: (element: Element) => void): void {
  for (const child of node.childNodes) {
    if ('tagName' in child) {
      visit(child);
      if (child.tagName === 'template') walk((child as DefaultTreeAdapterMap['template']).content, visit);
    }
    if ('childNodes' in child) walk(child as ParentNode, visit);
  }
}
